import Foundation

/// The next member of a container: a typed value at an address (valid until the cursor is asked again), or an `Any`.
enum EncodeChild {
    /// Codecs live as long as the process, so they are passed unretained.
    case typed(Unmanaged<ValueCodec>, UnsafeRawPointer)
    case any(Any)
}

/// A container being written.
class EncodeCursor {
    /// The codec that opened the cursor (its identity decides reuse); `nil` for cursors of `Any` values.
    var owner: AnyObject?
    var nextAtDepth: EncodeCursor?

    /// Writes the next member's separator and key and returns the member, or closes the container (`nil`).
    func next(_ writer: inout JSONWriter) -> EncodeChild? { fatalError("\(type(of: self)).next") }
    /// For cursors opened with a type value.
    func start(_ source: UnsafeRawPointer, sortedKeys: Bool) { fatalError("\(type(of: self)).start") }
    /// Once its container is closed.
    func reset() {}
}

// MARK: - Cursors

/// A model's (or a nested key path's) properties, in the table's order.
final class ObjectCursor: EncodeCursor {
    private var table: Unmanaged<FieldTable>?
    private var base = UnsafeRawPointer(bitPattern: 1)!
    private var order = UnsafeBufferPointer<Int>(start: nil, count: 0)
    private var position = 0
    /// Keys are written as the table quoted them.
    private var plainKeys = true

    /// - Precondition: `base` is where `table`'s offsets count from, valid until the container is closed.
    func start(_ table: FieldTable, base: UnsafeRawPointer, options: EncodingOptions) {
        self.table = .passUnretained(table)
        self.base = base
        order = table.writeOrder(sorted: options.sortedKeys)
        position = 0
        plainKeys = options.keyEncodingStrategy.isDefault
    }

    override func next(_ writer: inout JSONWriter) -> EncodeChild? {
        guard let table else { fatalError("ObjectCursor: not started") }
        return table.withInstance { table in
            let omitNil = writer.options.nilEncoding == .omit
            while position < order.count {
                let index = order[position]
                position += 1
                let slot = table.slot(index)
                let source = base + slot.pointee.offset
                let codec = slot.pointee.codecReference
                var child = EncodeChild.typed(codec, source)
                if codec.withInstance({ $0.isTransform }) {
                    // Asked once, both whether it is nil and what it is.
                    let json = codec.withInstance { unsafeDowncast($0, to: TransformCodec.self).json(source) }
                    if json == nil && omitNil { continue }
                    child = .any(json ?? NSNull())
                } else if omitNil && codec.withInstance({ $0.isNil(source) }) {
                    continue
                }
                if plainKeys || slot.pointee.isMapped {
                    writer.key(quoted: table.quotedKey(index), slot.pointee.key)
                } else {
                    writer.key(writer.options.keyEncodingStrategy.key(slot.pointee.key))
                }
                return child
            }
            writer.endObject()
            return nil
        }
    }

    override func reset() { table = nil }
}

/// One value of a type with a codec, held while the codec writes it.
final class HolderCursor<T>: EncodeCursor {
    private let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
    private var state = 0  // 0: empty, 1: holding, 2: handed to the codec
    private let codec: Unmanaged<ValueCodec>

    init(codec: ValueCodec) { self.codec = .passUnretained(codec) }

    deinit {
        reset()
        slot.deallocate()
    }

    func start(_ value: T) {
        reset()
        slot.initialize(to: value)
        state = 1
    }

    override func next(_ writer: inout JSONWriter) -> EncodeChild? {
        guard state == 1 else { return nil }
        state = 2
        return .typed(codec, UnsafeRawPointer(slot))
    }

    override func reset() {
        if state != 0 { slot.deinitialize(count: 1) }
        state = 0
    }
}

/// The elements of an array (or of a set, made an array), read in place.
final class ArrayCursor<Element>: EncodeCursor {
    private var elements = ModelStorage.ElementRun.empty
    private var index = 0
    /// An array that exists only for this cursor (a set's elements, a `JSONValue`'s), held while it is read.
    private var held: [Element] = []
    private var holds = false
    private let codec: Unmanaged<ValueCodec>

    init(codec: ValueCodec) { self.codec = .passUnretained(codec) }

    func start(_ array: [Element]) {
        held = array
        holds = true
        elements = ModelStorage.elements(of: held)
        index = 0
    }

    /// `source` holds an `[Element]`, which the frame below keeps alive and unchanged until this container is
    /// closed, so its elements are read in place.
    override func start(_ source: UnsafeRawPointer, sortedKeys: Bool) {
        elements = ModelStorage.elements(of: source.assumingMemoryBound(to: [Element].self))
        index = 0
    }

    override func next(_ writer: inout JSONWriter) -> EncodeChild? {
        guard index < elements.count else {
            writer.endArray()
            return nil
        }
        writer.element()
        defer { index += 1 }
        return .typed(codec, elements.address(index))
    }

    override func reset() {
        if holds { _slowpath_release() }
        elements = .empty
    }

    @inline(never)
    private func _slowpath_release() {
        held = []
        holds = false
    }
}

/// The entries of a `[String: Value]` (or a `JSONValue` object's members), values read in place.
final class DictionaryCursor<Value>: EncodeCursor {
    private var keys: [String] = []
    /// Keeps the buffer `values` points into alive and unchanged.
    private var valueArray: [Value] = []
    private var values = ModelStorage.ElementRun.empty
    private var index = 0
    private let codec: Unmanaged<ValueCodec>

    init(codec: ValueCodec) { self.codec = .passUnretained(codec) }

    override func start(_ source: UnsafeRawPointer, sortedKeys: Bool) {
        let dictionary = ModelStorage.load([String: Value].self, from: source)
        if sortedKeys {
            let entries = dictionary.sorted { $0.key < $1.key }
            start(keys: entries.map(\.key), values: entries.map(\.value))
        } else {
            start(keys: Array(dictionary.keys), values: Array(dictionary.values))
        }
    }

    /// In the order given, duplicate keys kept.
    func start(members: [JSONValue.Member]) where Value == JSONValue {
        start(keys: members.map(\.key), values: members.map(\.value))
    }

    private func start(keys: [String], values: [Value]) {
        self.keys = keys
        valueArray = values
        self.values = ModelStorage.elements(of: valueArray)
        index = 0
    }

    override func next(_ writer: inout JSONWriter) -> EncodeChild? {
        guard index < values.count else {
            writer.endObject()
            return nil
        }
        writer.key(keys[index])
        defer { index += 1 }
        return .typed(codec, values.address(index))
    }

    override func reset() {
        keys = []
        valueArray = []
        values = .empty
    }
}

/// An `[Any]`'s elements, or the members of a `[String: Any]` or of a value written by reflection.
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

    override func next(_ writer: inout JSONWriter) -> EncodeChild? {
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
