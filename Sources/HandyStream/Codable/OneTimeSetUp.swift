/// What the first decode or encode in a process sets up, once: the runtime's metadata for the library's own types,
/// `Mirror` (``KeyedContainerBox`` checks, once, a container `JSONDecoder` and one `JSONEncoder` made, by
/// reflection), the lazy statics, the spare tape and the spare keyed-container makers.
///
/// Made where it is first needed, that set-up runs on the caller's stack, deep inside the tokenizer's callbacks and
/// before the stack guard (``StackBudget``) is asked, and it is deeper than a decode or an encode itself: a first call
/// on a small thread crashed where every later call, and Foundation's coders, did not. So every decode and encode
/// starts with ``ensure()``: on a thread with less than ``roomNeeded`` of stack left, the first one does the set-up on
/// a thread of its own, with a large stack, and waits for it. (A thread with more room makes it in place; the set-up
/// thread has more room, so it never waits for itself. When no thread can be made, the set-up is left for later.)
///
/// What is left is what each type sets up when it is first decoded: see ``TapeDecoder/rehearse(_:builder:)``.
enum OneTimeSetUp {
    /// Below this much stack left, the set-up is made on a thread of its own: several times what it needs in a
    /// debug build (under a sanitizer every frame is several times larger).
    static let roomNeeded: UInt = 512 << 10

    /// Below this much stack left, a type's first decode is rehearsed on a thread of its own.
    static let typeRoomNeeded: UInt = 128 << 10

    /// The stack of the thread the set-up (or a rehearsal) runs on.
    static let stackSize = 4 << 20

    /// Makes the set-up, unless it was made or this thread has room for it: a look-up of the thread's stack (see
    /// ``StackGuard/lowEnd``), then a check of a `static let`.
    @inline(__always)
    static func ensure() {
        guard let room = StackGuard.room, room < roomNeeded else { return }
        _ = done
    }

    private static let done: Bool = {
        StackGuard.onLargeStack(stackSize: stackSize, setUp)
        return true
    }()

    /// Decodes and encodes a flat value through the same code as the callers' values, so that whatever they set up
    /// once is set up. Errors are not expected, and are of no consequence.
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
    /// Decodes the tape's value once on a thread with a large stack, and throws the value away, when `T` is decoded
    /// for the first time on a thread with little stack left. A type's first decode sets up what is the type's own
    /// (the runtime's metadata for it and for its coding keys' container, made by its `init(from:)`, this library's
    /// caches of it), deep inside the tokenizer's callbacks: on a 32 KiB thread that, not the decode, would overflow
    /// the stack. The rehearsal decodes the whole value, so the types inside it are set up too. Its `init(from:)`
    /// calls are extra ones (as a lenient decode's rescue makes), on another thread, with no diagnostics told.
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
