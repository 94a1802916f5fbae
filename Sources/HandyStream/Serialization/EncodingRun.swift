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
    /// The open containers, outermost first. The cursors are owned by `recycled`; the stack holds them unmanaged, as
    /// the decoder's frame stack does, so that pushing and popping costs no reference counting.
    private var stack: [Unmanaged<EncodeCursor>] = []
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
            switch top.withInstance({ $0.next(&writer) }) {
            case .typed(let codec, let source)?:
                try codec._withUnsafeGuaranteedRef { try $0.write(source, to: &self) }
            case .any(let value)?:
                try AnyWriter.write(value, to: &self)
            case nil:
                stack.removeLast()
                top.withInstance { $0.reset() }
            }
        }
    }

    /// Opens a container written by a cursor of type `Cursor`: the one this depth already has for `owner`, or a new
    /// one from `make`. The caller fills the cursor in, and the encoder then calls its `next` until it is done.
    mutating func open<Cursor: EncodeCursor>(
        _: Cursor.Type, owner: AnyObject?, isObject: Bool, make: () -> Cursor
    ) throws -> Cursor {
        if isObject { try writer.beginObject() } else { try writer.beginArray() }
        return unsafeDowncast(push(Cursor.self, owner: owner, make: make), to: Cursor.self)
    }

    /// The same, for a cursor type given as a value: generic containers keep their cursor's type, made once, so that
    /// opening one asks the runtime for no type metadata. The cursor reads the container at `source` itself.
    mutating func open(
        _ type: EncodeCursor.Type, owner: AnyObject, isObject: Bool, source: UnsafeRawPointer,
        make: () -> EncodeCursor
    ) throws {
        if isObject { try writer.beginObject() } else { try writer.beginArray() }
        push(type, owner: owner, make: make).start(source, sortedKeys: writer.options.sortedKeys)
    }

    /// Keeps `value` in a cursor of its own while `codec` writes it: for values that exist only here (a model inside
    /// an `Any`), whose members the codec's cursors read in place. Writes no brackets of its own.
    mutating func hold<T>(_ value: T, _ codec: ValueCodec) throws {
        unsafeDowncast(
            push(HolderCursor<T>.self, owner: codec) { HolderCursor<T>(codec: codec) },
            to: HolderCursor<T>.self
        ).start(value)
    }

    private mutating func push(_ type: EncodeCursor.Type, owner: AnyObject?, make: () -> EncodeCursor)
        -> EncodeCursor
    {
        let depth = stack.count
        if recycled.count <= depth { recycled.append(nil) }
        var candidate = recycled[depth]
        while let cursor = candidate {
            if cursor.owner === owner && ObjectIdentifier(Swift.type(of: cursor)) == ObjectIdentifier(type) {
                stack.append(.passUnretained(cursor))
                return cursor
            }
            candidate = cursor.nextAtDepth
        }
        return _slowpath_newCursor(make, owner: owner, depth: depth)
    }

    @inline(never)
    private mutating func _slowpath_newCursor(
        _ make: () -> EncodeCursor, owner: AnyObject?, depth: Int
    ) -> EncodeCursor {
        let made = make()
        made.owner = owner
        made.nextAtDepth = recycled[depth]
        recycled[depth] = made
        stack.append(.passUnretained(made))
        return made
    }
}

/// The next member of a container: a typed value at an address (valid until the cursor is asked again), or an `Any`.
enum EncodeChild {
    /// Codecs live as long as the process: passed without reference counting.
    case typed(Unmanaged<ValueCodec>, UnsafeRawPointer)
    case any(Any)
}

/// A container being written.
class EncodeCursor {
    /// The codec that opened the cursor (its identity decides reuse); `nil` for cursors of `Any` values.
    var owner: AnyObject?
    var nextAtDepth: EncodeCursor?

    /// Writes the separator (and key) of the next member and returns the member, or closes the container and
    /// returns `nil`.
    func next(_ writer: inout JSONWriter) -> EncodeChild? { fatalError("\(type(of: self)).next") }
    /// Reads the container at `source` (for cursors opened with a type value).
    func start(_ source: UnsafeRawPointer, sortedKeys: Bool) { fatalError("\(type(of: self)).start") }
    /// Lets go of what the cursor held, once its container is closed.
    func reset() {}
}

// MARK: - Cursors

/// A model's (or a nested key path's) properties, in the table's order.
final class ObjectCursor: EncodeCursor {
    private var table: Unmanaged<FieldTable>?
    private var base = UnsafeRawPointer(bitPattern: 1)!
    private var order = UnsafeBufferPointer<Int>(start: nil, count: 0)
    private var position = 0
    /// No key strategy applies: every key is written as its table quoted it.
    private var plainKeys = true

    /// - Precondition: `base` is where `table`'s offsets count from, valid until the container is closed.
    private func start(_ table: FieldTable, base: UnsafeRawPointer, sorted: Bool) {
        self.table = .passUnretained(table)
        self.base = base
        order = table.writeOrder(sorted: sorted)
        position = 0
    }

    /// Decided once per object rather than per member.
    func start(_ table: FieldTable, base: UnsafeRawPointer, options: EncodingOptions) {
        start(table, base: base, sorted: options.sortedKeys)
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
                    // The transform is asked once, for both questions: is it nil, and what is it.
                    let json = codec.withInstance { unsafeDowncast($0, to: TransformCodec.self).json(source) }
                    if json == nil && omitNil { continue }
                    child = .any(json ?? NSNull())
                } else if omitNil && codec.withInstance({ $0.isNil(source) }) {
                    continue
                }
                if plainKeys || slot.pointee.isMapped {
                    writer.key(quoted: table.quotedKey(index), slot.pointee.key)
                } else {
                    writer.key(writer.options.keyEncodingStrategy.key(slot.pointee.key, mapped: false))
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
    private var elements = UnsafeBufferPointer<Element>(start: nil, count: 0)
    private var index = 0
    /// An array that exists only for this cursor (a set's elements, a `JSONValue`'s), held while it is read.
    private var held: [Element] = []
    private var holds = false
    private let codec: Unmanaged<ValueCodec>

    init(codec: ValueCodec) { self.codec = .passUnretained(codec) }

    /// Reads `array`, which the cursor holds until the container is closed.
    func start(_ array: [Element]) {
        held = array
        holds = true
        elements = ModelStorage.elements(of: held)
        index = 0
    }

    /// `source` holds an `[Element]`, which the frame below keeps alive and unchanged until this container is
    /// closed (as an object's properties are): its elements are read where they are, with no copy.
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
        return .typed(codec, UnsafeRawPointer(elements.baseAddress! + index))
    }

    override func reset() {
        if holds { _slowpath_release() }
        elements = UnsafeBufferPointer(start: nil, count: 0)
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
    /// Held so that its buffer stays alive and unchanged while `values` points into it.
    private var valueArray: [Value] = []
    private var values = UnsafeBufferPointer<Value>(start: nil, count: 0)
    private var index = 0
    private let codec: Unmanaged<ValueCodec>

    init(codec: ValueCodec) { self.codec = .passUnretained(codec) }

    func start(_ dictionary: [String: Value], sorted: Bool) {
        if sorted {
            let entries = dictionary.sorted { $0.key < $1.key }
            start(keys: entries.map(\.key), values: entries.map(\.value))
        } else {
            start(keys: Array(dictionary.keys), values: Array(dictionary.values))
        }
    }

    /// `source` holds a `[String: Value]`.
    override func start(_ source: UnsafeRawPointer, sortedKeys: Bool) {
        start(ModelStorage.load([String: Value].self, from: source), sorted: sortedKeys)
    }

    /// Members in the order given (a `JSONValue` object's, duplicate keys kept).
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
        return .typed(codec, UnsafeRawPointer(values.baseAddress! + index))
    }

    override func reset() {
        keys = []
        valueArray = []
        values = UnsafeBufferPointer(start: nil, count: 0)
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
