/// What a process's first decode or encode sets up once (runtime metadata, `Mirror`, lazy statics, the spares),
/// which runs deeper than a decode itself and before ``StackBudget`` is asked.
///
/// So every decode and encode starts with ``ensure()``: with less than ``roomNeeded`` of stack left, the first one
/// sets up on a thread with a large stack and waits (that thread has room, so it never waits for itself). A type's
/// own first decode is covered by ``TapeDecoder/rehearse(_:builder:)``.
enum OneTimeSetUp {
    /// Several times what the set-up needs in a debug build, as a sanitizer's frames are several times larger.
    static let roomNeeded: UInt = 512 << 10

    /// Below this much stack left, a type's first decode is rehearsed on a thread of its own.
    static let typeRoomNeeded: UInt = 128 << 10

    static let stackSize = 4 << 20

    /// Makes the set-up, unless made already or this thread has room for it.
    @inline(__always)
    static func ensure() {
        guard let room = StackGuard.room, room < roomNeeded else { return }
        _ = done
    }

    private static let done: Bool = {
        StackGuard.onLargeStack(stackSize: stackSize, setUp)
        return true
    }()

    /// Decodes and encodes a flat value through the callers' code paths; errors are of no consequence.
    private static func setUp() {
        _ = KeyedContainerBox.isUnderstood
        _ = KeyedContainerBox.encodingIsUnderstood
        // `members` is missing: lenient mode takes its default from `init()` (``PropertyDefaults``, a `Mirror`).
        let json = #"{"int": 1, "text": "a", "number": 1.5, "flag": true, "optional": null, "list": [1]}"#
        let value = try? ModelDecoder().decode(SetUpValue.self, from: json)
        _ = try? ModelEncoder().encode(value ?? SetUpValue())
    }

    private struct SetUpValue: Codable, EmptyInitializable {
        var int = 0
        var text = ""
        var number = 0.0
        var flag = false
        var optional: Int? = nil
        var list: [Int] = []
        var members: [String: Int] = [:]
    }
}

extension TapeDecoder {
    /// Decodes the tape's value once, thrown away, on a thread with a large stack, when `T` is first decoded on a
    /// small one: a type's first decode sets up its metadata and caches, deeper than the decode. Its `init(from:)`
    /// calls are extra ones, on another thread, with no diagnostics told.
    @inline(never)
    func rehearse<T: Decodable>(_: T.Type, builder: Builder) {
        var options = context.options
        options.diagnostics = nil
        let rehearsal = TapeDecoder(storage: storage, context: CodableContext(options: options))
        StackGuard.onLargeStack(stackSize: OneTimeSetUp.stackSize) {
            _ = try? rehearsal.decodeRoot(T.self, builder: builder)
        }
    }
}
