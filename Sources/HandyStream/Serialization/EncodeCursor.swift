import Foundation

/// The next member of a container: a typed value at an address (valid until the cursor is asked again), or an `Any`.
enum EncodeChild {
    /// Codecs live as long as the process, so they are passed unretained.
    case typed(Unmanaged<ValueCodec>, UnsafeRawPointer)
    case any(Any)
}

/// A container being written.
class EncodeCursor {
    /// The codec that opened the cursor: its identity decides reuse (set once the cursor is made).
    var owner: AnyObject?
    var nextAtDepth: EncodeCursor?

    /// Writes the next member's separator and key and returns the member, or closes the container (`nil`).
    func next(_ writer: inout JSONWriter) -> EncodeChild? { fatalError("\(type(of: self)).next") }
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

/// Values a fixed stride apart, each written by one codec, read in place: an array's elements (a set's, made an array,
/// an inline array's, an `[Any]`'s with ``AnyCodec``), or, in ``MembersCursor``, an object's member values.
class ElementsCursor: EncodeCursor {
    // Unchecked: a cursor is used by one encoding run, one call at a time.
    @exclusivity(unchecked) final var elements = ModelStorage.ElementRun.empty
    @exclusivity(unchecked) final var index = 0
    /// An array made for this cursor (a set's elements, a dictionary's values, an `[Any]`), held while it is read.
    @exclusivity(unchecked) private final var held: Any?
    @exclusivity(unchecked) private final var holds = false
    final let codec: Unmanaged<ValueCodec>

    init(codec: ValueCodec) { self.codec = .passUnretained(codec) }

    /// - Precondition: `elements` stay where they are, unchanged, until this container is closed (in the value being
    ///   written, which the frame below keeps).
    final func start(_ elements: ModelStorage.ElementRun) {
        self.elements = elements
        index = 0
    }

    /// `elements` are in `holding`'s storage.
    final func start(_ elements: ModelStorage.ElementRun, holding: Any) {
        held = holding
        holds = true
        start(elements)
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
    private final func _slowpath_release() {
        held = nil
        holds = false
    }
}

/// An object's members: a `[String: Value]`'s entries, a `JSONValue` object's members (in order, duplicates kept), or a
/// `[String: Any]`'s and a reflected value's with ``AnyCodec``.
final class MembersCursor: ElementsCursor {
    @exclusivity(unchecked) private var keys: [String] = []

    func start<Value>(keys: [String], values: [Value]) {
        self.keys = keys
        start(ModelStorage.elements(of: values), holding: values)
    }

    func start<Value>(_ dictionary: [String: Value], sortedKeys: Bool) {
        guard sortedKeys else { return start(keys: Array(dictionary.keys), values: Array(dictionary.values)) }
        let entries = dictionary.sorted { $0.key < $1.key }
        start(keys: entries.map(\.key), values: entries.map(\.value))
    }

    override func next(_ writer: inout JSONWriter) -> EncodeChild? {
        guard index < elements.count else {
            writer.endObject()
            return nil
        }
        writer.key(keys[index])
        defer { index += 1 }
        return .typed(codec, elements.address(index))
    }

    override func reset() {
        keys = []
        super.reset()
    }
}

/// Writes `elements`, which exist only here, each by `codec`. A cursor is reused by the next container of the same
/// owner at the same depth, with the codec it was made with: an owner always writes its elements with one codec.
func openElements<Element>(_ elements: [Element], _ codec: ValueCodec, owner: AnyObject, on run: inout EncodingRun)
    throws
{
    try run.open(ElementsCursor.self, owner: owner, isObject: false) { ElementsCursor(codec: codec) }
        .start(ModelStorage.elements(of: elements), holding: elements)
}
