import Foundation

/// One encoding of one value: the writer, and an explicit stack of the containers being written.
///
///     encode(codec, value) ─▶ codec.write ─▶ scalar: straight into the writer
///                                  └──────▶ container: open a cursor ─▶ stack
///     loop: top cursor.next ─▶ the next member's codec and address (or an `Any`) ─▶ its write …
///                          └─▶ nil: the container is closed, the cursor popped
///
/// No codec calls another codec's `write`: nesting lives on this stack, never on the machine stack, so a deep or
/// cyclic object graph meets ``EncodingOptions/maximumDepth`` (a `JSONEncodingError`) on any thread, however small
/// its stack. Cursors are reused by the next container that the same codec opens at the same depth, so an array of
/// models allocates no cursors after its first element.
struct EncodingRun {
    var writer: JSONWriter
    /// The open containers, outermost first.
    private var stack: [EncodeCursor] = []
    /// For each depth, the cursors made there so far (a list through ``EncodeCursor/nextAtDepth``).
    private var recycled: [EncodeCursor?] = []

    init(options: EncodingOptions, buildsValues: Bool = false) {
        writer = JSONWriter(options: options, buildsValues: buildsValues)
    }

    var options: EncodingOptions { writer.options }

    /// Writes the value at `source`, and all it contains.
    ///
    /// - Precondition: `source` holds a value of `codec`'s type and stays valid until this returns.
    mutating func encode(_ codec: ValueCodec, at source: UnsafeRawPointer) throws {
        try codec.write(source, to: &self)
        try drain()
    }

    /// Writes a value of any type (Foundation values, models, other structs and classes by reflection).
    mutating func encode(any value: Any) throws {
        try AnyWriter.write(value, to: &self)
        try drain()
    }

    private mutating func drain() throws {
        while let top = stack.last {
            switch try top.next(&writer) {
            case .typed(let codec, let source)?:
                try codec.write(source, to: &self)
            case .any(let value)?:
                try AnyWriter.write(value, to: &self)
            case nil:
                stack.removeLast()
                top.reset()
            }
        }
    }

    /// Opens a container written by a cursor of type `Cursor`: the one this depth already has for `owner`, or a new
    /// one from `make`. The caller fills the cursor in, and the encoder then calls its `next` until it is done.
    mutating func open<Cursor: EncodeCursor>(
        _: Cursor.Type, owner: AnyObject?, isObject: Bool, make: () -> Cursor
    ) throws -> Cursor {
        if isObject { try writer.beginObject() } else { try writer.beginArray() }
        let depth = stack.count
        while recycled.count <= depth { recycled.append(nil) }
        var candidate = recycled[depth]
        var found: Cursor?
        while let cursor = candidate {
            if cursor.owner === owner && ObjectIdentifier(type(of: cursor)) == ObjectIdentifier(Cursor.self) {
                found = unsafeDowncast(cursor, to: Cursor.self)
                break
            }
            candidate = cursor.nextAtDepth
        }
        let cursor = found ?? {
            let made = make()
            made.owner = owner
            made.nextAtDepth = recycled[depth]
            recycled[depth] = made
            return made
        }()
        stack.append(cursor)
        return cursor
    }
}

extension EncodingRun {
    /// Keeps `value` in a cursor of its own while `codec` writes it: for values that exist only here (a model inside
    /// an `Any`), whose members the codec's cursors read in place. Writes no brackets of its own.
    mutating func hold<T>(_ value: T, _ codec: ValueCodec) throws {
        let depth = stack.count
        while recycled.count <= depth { recycled.append(nil) }
        var candidate = recycled[depth]
        var found: HolderCursor<T>?
        while let cursor = candidate {
            if cursor.owner === codec && ObjectIdentifier(type(of: cursor)) == ObjectIdentifier(HolderCursor<T>.self) {
                found = unsafeDowncast(cursor, to: HolderCursor<T>.self)
                break
            }
            candidate = cursor.nextAtDepth
        }
        let cursor = found ?? {
            let made = HolderCursor<T>(codec: codec)
            made.owner = codec
            made.nextAtDepth = recycled[depth]
            recycled[depth] = made
            return made
        }()
        cursor.start(value)
        stack.append(cursor)
    }
}

/// The next member of a container: a typed value at an address (valid until the cursor is asked again), or an `Any`.
enum EncodeChild {
    case typed(ValueCodec, UnsafeRawPointer)
    case any(Any)
}

/// A container being written.
class EncodeCursor {
    /// The codec that opened the cursor (its identity decides reuse); `nil` for cursors of `Any` values.
    var owner: AnyObject?
    var nextAtDepth: EncodeCursor?

    /// Writes the separator (and key) of the next member and returns the member, or closes the container and
    /// returns `nil`.
    func next(_ writer: inout JSONWriter) throws -> EncodeChild? { fatalError("\(type(of: self)).next") }
    /// Lets go of what the cursor held, once its container is closed.
    func reset() {}
}

// MARK: - Cursors

/// A model's (or a nested key path's) properties, in the table's order.
final class ObjectCursor: EncodeCursor {
    private var table: FieldTable?
    private var base = UnsafeRawPointer(bitPattern: 1)!
    private var position = 0

    /// - Precondition: `base` is where `table`'s offsets count from, valid until the container is closed.
    func start(_ table: FieldTable, base: UnsafeRawPointer) {
        self.table = table
        self.base = base
        position = 0
    }

    override func next(_ writer: inout JSONWriter) throws -> EncodeChild? {
        guard let table else { fatalError("ObjectCursor: not started") }
        let sorted = writer.options.sortedKeys
        let omitNil = writer.options.nilEncoding == .omit
        while let index = table.writtenSlot(at: position, sorted: sorted) {
            position += 1
            let slot = table.slot(index).pointee
            let source = base + slot.offset
            let codec = slot.codec
            if codec.isTransform {
                // The transform is asked once, for both questions: is it nil, and what is it.
                let json = unsafeDowncast(codec, to: TransformCodec.self).json(source)
                if json == nil && omitNil { continue }
                writer.key(writer.options.keyEncodingStrategy.key(slot.key, mapped: slot.isMapped))
                return .any(json ?? NSNull())
            }
            if omitNil && codec.isNil(source) { continue }
            writer.key(writer.options.keyEncodingStrategy.key(slot.key, mapped: slot.isMapped))
            return .typed(codec, source)
        }
        writer.endObject()
        return nil
    }

    override func reset() { table = nil }
}

/// One value of a type with a codec, held while the codec writes it.
final class HolderCursor<T>: EncodeCursor {
    private let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
    private var state = 0  // 0: empty, 1: holding, 2: handed to the codec
    private unowned(unsafe) var codec: ValueCodec

    init(codec: ValueCodec) { self.codec = codec }

    deinit {
        reset()
        slot.deallocate()
    }

    func start(_ value: T) {
        reset()
        slot.initialize(to: value)
        state = 1
    }

    override func next(_ writer: inout JSONWriter) throws -> EncodeChild? {
        guard state == 1 else { return nil }
        state = 2
        return .typed(codec, UnsafeRawPointer(slot))
    }

    override func reset() {
        if state != 0 { slot.deinitialize(count: 1) }
        state = 0
    }
}

/// The elements of an array (or of a set, made an array), each copied in turn into the cursor's own slot.
final class ArrayCursor<Element>: EncodeCursor {
    private var elements: [Element] = []
    private var index = 0
    private let slot = UnsafeMutablePointer<Element>.allocate(capacity: 1)
    private var slotIsLive = false
    private unowned(unsafe) var codec: ValueCodec

    init(codec: ValueCodec) { self.codec = codec }

    deinit {
        clearSlot()
        slot.deallocate()
    }

    func start(_ elements: [Element]) {
        self.elements = elements
        index = 0
    }

    private func clearSlot() {
        if slotIsLive { slot.deinitialize(count: 1) }
        slotIsLive = false
    }

    override func next(_ writer: inout JSONWriter) throws -> EncodeChild? {
        clearSlot()
        guard index < elements.count else {
            writer.endArray()
            return nil
        }
        writer.element()
        slot.initialize(to: elements[index])
        slotIsLive = true
        index += 1
        return .typed(codec, UnsafeRawPointer(slot))
    }

    override func reset() {
        clearSlot()
        elements = []
    }
}

/// The entries of a `[String: Value]`, each value copied in turn into the cursor's own slot.
final class DictionaryCursor<Value>: EncodeCursor {
    private var entries: [(key: String, value: Value)] = []
    private var index = 0
    private let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    private var slotIsLive = false
    private unowned(unsafe) var codec: ValueCodec

    init(codec: ValueCodec) { self.codec = codec }

    deinit {
        clearSlot()
        slot.deallocate()
    }

    func start(_ dictionary: [String: Value], sorted: Bool) {
        entries = sorted ? dictionary.sorted { $0.key < $1.key } : Array(dictionary)
        index = 0
    }

    /// Members in the order given (a `JSONValue` object's, duplicate keys kept).
    func start(members: [JSONValue.Member]) where Value == JSONValue {
        entries = members.map { ($0.key, $0.value) }
        index = 0
    }

    private func clearSlot() {
        if slotIsLive { slot.deinitialize(count: 1) }
        slotIsLive = false
    }

    override func next(_ writer: inout JSONWriter) throws -> EncodeChild? {
        clearSlot()
        guard index < entries.count else {
            writer.endObject()
            return nil
        }
        writer.key(entries[index].key)
        slot.initialize(to: entries[index].value)
        slotIsLive = true
        index += 1
        return .typed(codec, UnsafeRawPointer(slot))
    }

    override func reset() {
        clearSlot()
        entries = []
    }
}

/// The elements of an `[Any]`, or the members of an object of `Any` values (a `[String: Any]`, or the stored
/// properties of a value written by reflection).
final class AnyCursor: EncodeCursor {
    private var elements: [Any] = []
    private var keys: [String]?
    private var index = 0

    func start(elements: [Any]) {
        self.elements = elements
        keys = nil
        index = 0
    }

    func start(members: [(String, Any)]) {
        elements = members.map(\.1)
        keys = members.map(\.0)
        index = 0
    }

    override func next(_ writer: inout JSONWriter) throws -> EncodeChild? {
        guard index < elements.count else {
            if keys == nil { writer.endArray() } else { writer.endObject() }
            return nil
        }
        if let keys { writer.key(keys[index]) } else { writer.element() }
        index += 1
        return .any(elements[index - 1])
    }

    override func reset() {
        elements = []
        keys = nil
    }
}
