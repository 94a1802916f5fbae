import Foundation

/// One encoding of one value: the writer, and an explicit stack of the containers being written.
///
///     encode(codec, value) ─▶ codec.write ─▶ scalar: straight into the writer
///                                  └──────▶ container: open a cursor ─▶ stack
///     loop: top cursor.next ─▶ the next member's codec and address (or an `Any`) ─▶ its write …
///                          └─▶ nil: the container is closed, the cursor popped
///
/// No codec calls another codec's `write`: nesting lives on this stack, not the machine stack, so a deep or cyclic
/// model graph meets ``EncodingOptions/maximumDepth`` on any thread. A cursor is reused by the next container the same
/// codec opens at the same depth.
struct EncodingRun {
    var writer: JSONWriter
    /// Outermost first; unretained (`recycled` owns the cursors), so pushing and popping costs no reference counting.
    private var stack: [Unmanaged<EncodeCursor>] = []
    /// For each depth, the cursors made there so far (a list through ``EncodeCursor/nextAtDepth``).
    private var recycled: [EncodeCursor?] = []

    init(options: EncodingOptions, buildsValues: Bool = false) {
        OneTimeSetUp.ensure()
        writer = JSONWriter(options: options, buildsValues: buildsValues)
    }

    var options: EncodingOptions { writer.options }

    /// - Precondition: `source` holds a value of `codec`'s type and stays valid until this returns.
    mutating func encode(_ codec: ValueCodec, at source: UnsafeRawPointer) throws {
        try codec.write(source, to: &self)
        try drain()
    }

    /// Foundation values, models, and other types by reflection.
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

    /// With the cursor this depth has for `owner`, or a new one from `make`, for the caller to fill in.
    mutating func open<Cursor: EncodeCursor>(
        _: Cursor.Type, owner: AnyObject, isObject: Bool, make: () -> Cursor
    ) throws -> Cursor {
        if isObject { try writer.beginObject() } else { try writer.beginArray() }
        return unsafeDowncast(push(Cursor.self, owner: owner, make: make), to: Cursor.self)
    }

    /// Keeps a value that exists only here (a model inside an `Any`) alive while `codec`'s cursors read it in place.
    mutating func hold<T>(_ value: T, _ codec: ValueCodec) throws {
        unsafeDowncast(
            push(HolderCursor<T>.self, owner: codec) { HolderCursor<T>(codec: codec) },
            to: HolderCursor<T>.self
        ).start(value)
    }

    private mutating func push(_ type: EncodeCursor.Type, owner: AnyObject, make: () -> EncodeCursor)
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
        _ make: () -> EncodeCursor, owner: AnyObject, depth: Int
    ) -> EncodeCursor {
        let made = make()
        made.owner = owner
        made.nextAtDepth = recycled[depth]
        recycled[depth] = made
        stack.append(.passUnretained(made))
        return made
    }
}
