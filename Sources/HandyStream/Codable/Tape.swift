/// The events of one JSON value, held so that `init(from:)` can pull them in its own order.
///
/// The builder is push-driven, while a `Decodable` type asks for keys in the order its `init(from:)` names them. So
/// the events of the value being decoded (a designated value, a stream element, a `Decodable` property of a model)
/// are recorded here, as they arrive, and the ``TapeDecoder`` runs over them when the value is complete.
///
///     {"id": 7, "tags": ["a"]}   →   tokens:  object(2 members, end 6)  key "id"  number "7"  key "tags"
///                                             array(1 element, end 6)  string "a"
///                                    bytes:   id7tagsa
///
/// Every token is one fixed-size record in one array; keys, strings (already unescaped) and numbers (their text)
/// are copied into one byte buffer, since the tokenizer's buffers live only during its callback. A container's token
/// says how many members it has and where it ends, so a member is skipped in one step and an object's members are
/// found by comparing key bytes: no `String` per key, no dictionary, no allocation per value. Both arrays keep their
/// capacity when the tape is reset for the next value, so a stream of elements decodes in flat memory.
struct Tape {
    enum Kind: UInt8 {
        case object, array, key, string, number, `true`, `false`, null
    }

    struct Token {
        var kind: Kind
        /// Scalars and keys: where their bytes start in ``Tape/bytes``. Containers: the number of members or
        /// elements.
        var start: Int32
        /// Scalars and keys: how many bytes. Containers: the index of the token after the container.
        var length: Int32
        /// Objects: the member after the last one found, where the next look-up starts (members are usually asked
        /// for in the order they come). `0` when none was found yet.
        var hint: Int32
        /// The byte offset in the document just past the token, for errors.
        var offset: Int
    }

    private(set) var tokens: [Token] = []
    private(set) var bytes: [UInt8] = []
    /// The open containers' token indices, innermost last.
    private var open: [Int32] = []

    /// The largest tape: token indices and byte positions are 32-bit.
    static let capacityLimit = Int(Int32.max)

    /// Empties the tape for the next value, keeping its memory.
    mutating func reset() {
        tokens.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
    }

    /// Whether the value is complete (every container opened has closed).
    var isComplete: Bool { open.isEmpty && !tokens.isEmpty }

    /// The depth of open containers.
    var openCount: Int { open.count }

    /// Whether another token (and `byteCount` bytes) still fits the 32-bit positions.
    func fits(byteCount: Int) -> Bool {
        tokens.count < Self.capacityLimit - 1 && bytes.count <= Self.capacityLimit - byteCount
    }

    // MARK: - Recording

    /// Counts one more member or element in the innermost open container.
    @inline(__always)
    private mutating func countInParent() {
        if let parent = open.last { tokens[Int(parent)].start &+= 1 }
    }

    /// Counts one more element when the innermost open container is an array (an object counts its keys).
    @inline(__always)
    private mutating func countElementInParent() {
        if let parent = open.last, tokens[Int(parent)].kind == .array { tokens[Int(parent)].start &+= 1 }
    }

    mutating func beginContainer(isObject: Bool, offset: Int) {
        countElementInParent()
        open.append(Int32(truncatingIfNeeded: tokens.count))
        tokens.append(Token(kind: isObject ? .object : .array, start: 0, length: 0, hint: 0, offset: offset))
    }

    mutating func endContainer() {
        let index = Int(open.removeLast())
        tokens[index].length = Int32(truncatingIfNeeded: tokens.count)
    }

    mutating func key(_ text: UnsafeRawBufferPointer, offset: Int) {
        countInParent()
        append(.key, text, offset: offset)
    }

    /// A scalar: its text for strings and numbers, none for the literals.
    mutating func scalar(_ kind: Kind, _ text: UnsafeRawBufferPointer, offset: Int) {
        countElementInParent()
        append(kind, text, offset: offset)
    }

    @inline(__always)
    private mutating func append(_ kind: Kind, _ text: UnsafeRawBufferPointer, offset: Int) {
        let start = Int32(truncatingIfNeeded: bytes.count)
        if !text.isEmpty { text.withMemoryRebound(to: UInt8.self) { bytes.append(contentsOf: $0) } }
        tokens.append(Token(
            kind: kind, start: start, length: Int32(truncatingIfNeeded: text.count), hint: 0, offset: offset))
    }

    // MARK: - Reading

    /// The index of the token after the value at `index`.
    @inline(__always)
    func next(after index: Int) -> Int {
        let token = tokens[index]
        return token.kind == .object || token.kind == .array ? Int(token.length) : index + 1
    }

    /// Calls `body` with the bytes of the scalar or key at `index`.
    @inline(__always)
    func withBytes<Result>(of index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let token = tokens[index]
        assert(token.kind != .object && token.kind != .array, "Tape: a container has no bytes")
        let start = Int(token.start)
        let count = Int(token.length)
        return try bytes.withUnsafeBytes { all in
            precondition(start >= 0 && count >= 0 && start + count <= all.count, "Tape: byte range out of bounds")
            return try body(UnsafeRawBufferPointer(rebasing: all[start..<start + count]))
        }
    }

    /// Sets the look-up hint of the object at `index`.
    @inline(__always)
    mutating func setHint(_ hint: Int, ofObjectAt index: Int) {
        tokens[index].hint = Int32(truncatingIfNeeded: hint)
    }
}
