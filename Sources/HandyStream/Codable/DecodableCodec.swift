import Foundation

/// Where the model builder meets a `Decodable` type: the value's events are recorded on a tape, and when it is
/// complete a ``TapeDecoder`` runs its `init(from:)` over them.
///
/// A container opens a ``DecodableFrame``, which stands for all of the value's levels, as ``JSONTextFrame`` does. A
/// scalar is a one-token tape, decoded at once with the run's decoder.
final class DecodableCodec<T: Decodable>: ValueCodec, @unchecked Sendable {
    init() { super.init(valueType: T.self, storesFinishedFrames: true) }

    override var decodesCodableValues: Bool { true }

    override var expectation: String { "a value of type \(T.self)" }

    private func scalar(
        at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder, _ record: (inout Tape) -> Void
    ) -> Bool {
        let decoder = builder.run.codable.decoderForScalar()
        record(&decoder.storage.tape.pointee)
        do {
            let value = try decoder.decodeRoot(T.self, builder: builder)
            ModelStorage.store(value, at: target, mode: mode)
            return true
        } catch {
            // For the error the builder makes next (strict mode) or the root value's error.
            if builder.options.strict || builder.atRootValue {
                builder.run.valueFailure = (error, builder.currentOffset)
            }
            return false
        }
    }

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool {
        scalar(at: target, mode: mode, builder) {
            $0.scalar(.null, UnsafeRawBufferPointer(start: nil, count: 0), offset: 0)
        }
    }
    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        scalar(at: target, mode: mode, builder) {
            $0.scalar(value ? .true : .false, UnsafeRawBufferPointer(start: nil, count: 0), offset: 0)
        }
    }
    override func storeNumber(
        _ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        scalar(at: target, mode: mode, builder) { $0.scalar(.number, text, offset: 0) }
    }
    override func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        scalar(at: target, mode: mode, builder) { $0.scalar(.string, bytes, offset: 0) }
    }
    override func storeReady(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        guard let value = value as? T else { return false }
        ModelStorage.store(value, at: target, mode: mode)
        return true
    }

    override func openObject(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: true) { DecodableFrame<T>(opener: self, isObject: true) }
    }
    override func openArray(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: false) { DecodableFrame<T>(opener: self, isObject: false) }
    }

    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        unsafeDowncast(frame, to: DecodableFrame<T>.self).moveValue(to: target, mode: mode)
    }

    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        let value = ModelStorage.load(T.self, from: source)
        guard let encodable = value as? any Encodable else {
            throw JSONEncodingError(message: "a value of type \(T.self) is Decodable but not Encodable")
        }
        try run.writeEncodable(encodable)
    }
}

/// Records a value's events on a tape, standing for every level of the value. Not generic, so that recording, the
/// commonest work of a `Codable` document, reads its fields at fixed offsets.
class RecordingFrame: Frame {
    fileprivate var storage = TapeStorage() {
        didSet { tape = storage.tape }
    }
    final fileprivate private(set) var tape: UnsafeMutablePointer<Tape>

    override init(opener: ValueCodec, isObject: Bool, childCodecs: Int = 1) {
        tape = storage.tape
        super.init(opener: opener, isObject: isObject, childCodecs: childCodecs)
    }

    override func begin(_ builder: Builder) {
        tape.pointee.reset()
        tape.pointee.beginContainer(isObject: isObject, offset: builder.currentOffset)
    }

    override final func key(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        record(byteCount: bytes.count, builder) { $0.key(bytes, offset: $1) }
    }
    override final func null(_ builder: Builder) -> Bool {
        record(byteCount: 0, builder) { $0.scalar(.null, UnsafeRawBufferPointer(start: nil, count: 0), offset: $1) }
    }
    override final func bool(_ flag: Bool, _ builder: Builder) -> Bool {
        record(byteCount: 0, builder) {
            $0.scalar(flag ? .true : .false, UnsafeRawBufferPointer(start: nil, count: 0), offset: $1)
        }
    }
    override final func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        record(byteCount: text.count, builder) { $0.scalar(.number, text, offset: $1) }
    }
    override final func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        record(byteCount: bytes.count, builder) { $0.scalar(.string, bytes, offset: $1) }
    }
    override final func ready(_ ready: Any, _ builder: Builder) -> Bool? { nil }
    override final func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? {
        guard record(byteCount: 0, builder, { $0.beginContainer(isObject: isObject, offset: $1) }) else {
            return nil
        }
        return .passUnretained(self)
    }
    override final func childFinished(_ child: Frame, _ builder: Builder) -> Bool { true }

    /// Unless the tape is full (its positions are 32-bit).
    @inline(__always)
    private func record(byteCount: Int, _ builder: Builder, _ body: (inout Tape, Int) -> Void) -> Bool {
        guard tape.pointee.fits(byteCount: byteCount) else { return tapeFull(builder) }
        body(&tape.pointee, builder.currentOffset)
        return true
    }

    @inline(never)
    private func tapeFull(_ builder: Builder) -> Bool {
        builder.run.fail(
            BuildFailure(
                kind: .tooDeep, message: "a value larger than \(Tape.capacityLimit) bytes or tokens",
                path: builder.currentPath()))
    }

    /// The position inside the value, from the tape.
    override final func appendPosition(to path: inout String) {
        path += tape.pointee.openPath()
    }
}

/// Records a `Decodable` value's events on a tape, then decodes it when its outermost container ends.
final class DecodableFrame<T: Decodable>: RecordingFrame {
    private var decoder: TapeDecoder?
    /// Until the parent moves it into place; not a `T?`, whose metadata would be looked up per value.
    private let held = HeldValue(T.self)

    deinit {
        held.discard(T.self)
        held.deallocate()
    }

    override func begin(_ builder: Builder) {
        releaseDecoderIfKept()
        held.discard(T.self)
        super.begin(builder)
    }

    override func finish(_ builder: Builder) -> Bool {
        tape.pointee.endContainer()
        guard tape.pointee.openCount == 0 else { return true }
        return decodeValue(builder)
    }

    @inline(never)
    private func decodeValue(_ builder: Builder) -> Bool {
        let context = builder.run.codable
        let decoder = self.decoder ?? TapeDecoder(storage: storage, context: context)
        self.decoder = decoder
        do {
            let value = try decoder.decodeRoot(T.self, builder: builder)
            held.hold(value)
            return true
        } catch {
            // Lenient mode lets the parent treat the value as one that doesn't fit, keeping a root value's error.
            if let exhausted = error as? StackExhausted {
                return builder.run.fail(
                    BuildFailure(
                        kind: .tooDeep, message: exhausted.description,
                        path: builder.currentPath() + CodingPathNode.jsonPath(of: exhausted.codingPath),
                        offset: decoder.errorOffset))
            }
            if context.options.strict {
                return builder.run.fail(
                    BuildFailure(
                        kind: .typeMismatch, message: "\(error)", path: builder.currentPath(), underlying: error,
                        offset: decoder.errorOffset))
            }
            if builder.atRootValue { builder.run.valueFailure = (error, decoder.errorOffset) }
            return true
        }
    }

    /// A value's `init(from:)` may keep its `Decoder` (or something holding it) and read it later: then the next
    /// value gets a new tape and decoder.
    private func releaseDecoderIfKept() {
        guard decoder != nil, !isKnownUniquelyReferenced(&decoder!) else { return }
        decoder = nil
        storage = TapeStorage()
    }

    /// `false` when the value did not decode.
    func moveValue(to target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        held.move(T.self, to: target, mode: mode)
    }

    override func discard() { held.discard(T.self) }
}
