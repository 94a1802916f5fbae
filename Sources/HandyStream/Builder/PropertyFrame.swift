/// Fills properties from an object's keys: a known key's value is written at its property's offset from
/// ``Frame/propertyBase``; unknown keys are skipped; `null` and misfits leave the default. Models and nested key paths
/// share this.
class PropertyFrame: Frame {
    /// Kept alive by its codec, never freed: used through ``withTable(_:)`` without reference counting.
    private let tableReference: Unmanaged<FieldTable>

    @inline(__always)
    final func withTable<Result>(_ body: (FieldTable) -> Result) -> Result { tableReference.withInstance(body) }

    @inline(__always)
    private final func slot(_ index: Int) -> UnsafeMutablePointer<FieldTable.Slot> { withTable { $0.slot(index) } }
    /// The slot of the key just read, or -1 for a key that is not read (unknown, or a worse candidate).
    private final var pending = -1
    /// The slot expected next: documents tend to list keys in the order models declare them.
    private final var predicted = 0
    /// The last unread key's first bytes, for error paths, in the frame's own buffer (no `Array` per key).
    private final let unknownKey = UnsafeMutablePointer<UInt8>.allocate(capacity: PropertyFrame.unknownKeyCapacity)
    private final var unknownKeyLength = 0
    private final var inUnknownKey = false
    private static let unknownKeyCapacity = 64

    /// Opens children with each property's codec (the frame's codec number `i` is slot `i`'s).
    init(opener: ValueCodec, table: FieldTable) {
        tableReference = .passUnretained(table)
        super.init(opener: opener, isObject: true, childCodecs: table.slots.count)
    }

    deinit { unknownKey.deallocate() }

    /// The best priority seen in this object per candidate property: the ``ModelFrame``'s, shared with its paths'.
    final var bestCandidates = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)

    @inline(__always)
    final func beginProperties(at base: UnsafeMutableRawPointer) {
        propertyBase = base
        pending = -1
        predicted = 0
        inUnknownKey = false
    }

    override final func key(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        var found = tableReference.withInstance { $0.slotIndex(forKey: bytes, predicted: predicted) }
        if found >= FieldTable.candidateFlag { found = _slowpath_candidate(found) }
        pending = found
        predicted = found + 1
        inUnknownKey = found < 0
        if inUnknownKey {
            unknownKeyLength = min(bytes.count, Self.unknownKeyCapacity)
            if unknownKeyLength > 0 {
                ShortBytes.copy(
                    to: UnsafeMutableRawPointer(unknownKey), from: bytes.baseAddress!, count: unknownKeyLength)
            }
        }
        return true
    }

    /// A candidate key: read only when no better-ranked candidate of its property came before it in this object.
    @inline(never)
    private final func _slowpath_candidate(_ packed: Int) -> Int {
        let slot = packed & FieldTable.slotMask
        let priority = Int32(truncatingIfNeeded: (packed & ~FieldTable.candidateFlag) >> FieldTable.priorityShift)
        let candidate = self.slot(slot).pointee.candidate
        precondition(
            candidate >= 0 && candidate < bestCandidates.count, "\(withTable { $0.modelName }): candidate record")
        guard priority <= bestCandidates[candidate] else { return -1 }
        bestCandidates[candidate] = priority
        return slot
    }

    /// Stores a scalar in the pending property itself when it is of a ``ScalarKind`` and converts; else `false`.
    @inline(__always)
    private final func storedDirectly(_ store: (ScalarKind, UnsafeMutableRawPointer) -> Bool) -> Bool {
        let index = pending
        guard index >= 0 else { return false }
        let slot = slot(index)
        let target = ModelStorage.field(propertyBase.unsafelyUnwrapped, offset: slot.pointee.offset)
        guard store(slot.pointee.scalarKind, target) else { return false }
        pending = -1
        return true
    }

    @inline(__always)
    private final func scalar(
        _ builder: Builder, _ store: (ValueCodec, UnsafeMutableRawPointer) -> Bool, found: @autoclosure () -> String
    ) -> Bool {
        let index = pending
        guard index >= 0 else { return true }
        let slot = slot(index)
        let target = ModelStorage.field(propertyBase.unsafelyUnwrapped, offset: slot.pointee.offset)
        // The property stays pending while it is stored: a `Decodable` value's diagnostics name it in their path.
        let stored = slot.pointee.codecReference.withInstance({ store($0, target) })
        pending = -1
        return stored ? true : _slowpath_mismatch(index, found: found, builder)
    }

    /// A scalar that doesn't fit its property (at `index`): out of line, so the stores above keep few registers.
    @inline(never)
    private final func _slowpath_mismatch(_ index: Int, found: () -> String, _ builder: Builder) -> Bool {
        // The error's path names the property.
        pending = index
        defer { pending = -1 }
        return builder.fallback(
            "expected \(slot(index).pointee.codec.expectation), found \(found())", "; the default was kept")
    }

    // `null` leaves the default, as in HandyJSON.
    override final func null(_ builder: Builder) -> Bool {
        pending = -1
        return true
    }
    override final func bool(_ value: Bool, _ builder: Builder) -> Bool {
        storedDirectly { $0.storeBool(value, at: $1, mode: .assign) }
            || scalar(builder, { $0.storeBool(value, at: $1, mode: .assign, builder) }, found: value ? "true" : "false")
    }
    override final func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        storedDirectly { $0.storeNumber(text, at: $1, mode: .assign) }
            || scalar(
                builder, { $0.storeNumber(text, at: $1, mode: .assign, builder) },
                found: "the number " + builder.options.numberText(text))
    }
    override final func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        storedDirectly { $0.storeString(bytes, in: builder.run, at: $1, mode: .assign) }
            || scalar(builder, { $0.storeString(bytes, at: $1, mode: .assign, builder) }, found: "a string")
    }

    override final func ready(_ value: Any, _ builder: Builder) -> Bool? {
        guard pending >= 0 else { return nil }
        let slot = slot(pending)
        let target = ModelStorage.field(propertyBase.unsafelyUnwrapped, offset: slot.pointee.offset)
        guard slot.pointee.codec.storeReady(value, at: target, mode: .assign, builder) else { return nil }
        pending = -1
        return true
    }

    override final func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? {
        guard pending >= 0 else { return nil }
        let codec = slot(pending).pointee.codecReference
        if let child = children.open(pending, with: codec, isObject: isObject, builder) { return child }
        _ = builder.fallback(
            "expected \(codec.withInstance { $0.expectation }), found \(isObject ? "an object" : "an array")",
            "; the default was kept")
        return nil
    }

    override final func childFinished(_ child: Frame, _ builder: Builder) -> Bool {
        let slot = slot(pending)
        let target = ModelStorage.field(propertyBase.unsafelyUnwrapped, offset: slot.pointee.offset)
        let codec = slot.pointee.codecReference
        // Still pending while a fallback is reported, so that its path names the property.
        defer { pending = -1 }
        guard codec.withInstance({ $0.storeValue(finishedIn: child, at: target, mode: .assign) }) else {
            return builder.fallback(
                "expected \(codec.withInstance { $0.expectation }), found \(child.found)", "; the default was kept")
        }
        return true
    }

    override final func skipped() { pending = -1 }

    override final func appendPosition(to path: inout String) {
        if pending >= 0 {
            path += "." + slot(pending).pointee.key
        } else if inUnknownKey {
            path +=
                "." + String(decoding: UnsafeBufferPointer(start: unknownKey, count: unknownKeyLength), as: UTF8.self)
        }
    }
}
