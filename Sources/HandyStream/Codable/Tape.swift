import Foundation

/// The events of one JSON value, recorded as the push-driven builder delivers them, so that the ``TapeDecoder`` can
/// run `init(from:)` over them, in its own order, once the value is complete.
///
///     {"id": 7, "tags": ["a"]}   →   tokens:  object(2 members, end 6)  key "id"  number "7"  key "tags"
///                                             array(1 element, end 6)  string "a"
///                                    bytes:   id7tagsa
///
/// Tokens are fixed-size records; keys, strings (unescaped) and numbers' text are copied into one byte buffer, as
/// the tokenizer's buffers live only during its callback. A container's token says where it ends, so a member is
/// skipped in one step; members are found by comparing key bytes. The buffers keep their capacity across values.
struct Tape {
    enum Kind: UInt8 {
        case object, array, key, string, number, `true`, `false`, null
    }

    struct Token {
        var kind: Kind
        /// Scalars and keys: their bytes' start in ``Tape/bytes``. Containers: how many members or elements.
        var start: Int32
        /// Scalars and keys: how many bytes. Containers: the index of the token after the container.
        var length: Int32
        /// Objects: the member after the last one found, where the next look-up starts; `0` until one is found.
        var hint: Int32
        /// The byte offset in the document just past the token, for errors.
        var offset: Int
        /// Objects: what ``Tape/keyTraits(ofObjectAt:)`` found of their keys, once asked.
        var flags: UInt8 = 0
    }

    /// Worked out the first time a member is looked up in the object.
    struct KeyTraits: OptionSet {
        let rawValue: UInt8
        static let known = KeyTraits(rawValue: 1 << 0)
        /// Look-ups must then find the first, as `JSONDecoder` does.
        static let duplicates = KeyTraits(rawValue: 1 << 1)
        /// A key not found by its bytes may still be equal as a `String`. Set as the keys are recorded.
        static let nonASCII = KeyTraits(rawValue: 1 << 2)
    }

    /// Manual memory (freed by ``deallocate()``): arrays would add a uniqueness check to each write. Indices are
    /// checked by `assert` in debug builds, and by the callers' bounds (a container's end, a token's length) always.
    private(set) var tokens = RawBuffer<Token>(capacity: 64)
    private var byteBuffer = OutputBytes()
    /// The open containers' tokens, innermost last.
    private var open = RawBuffer<Int32>(capacity: 16)
    private var duplicates = DuplicateKeys()

    var tokenCount: Int { tokens.count }
    var byteCount: Int { byteBuffer.count }
    var openCount: Int { open.count }

    /// Token indices and byte positions are 32-bit.
    static let capacityLimit = Int(Int32.max)

    var allocatedBytes: Int {
        tokens.allocatedBytes + byteBuffer.allocatedBytes + open.allocatedBytes + duplicates.allocatedBytes
    }

    /// The tape is not used again.
    func deallocate() {
        tokens.deallocate()
        byteBuffer.deallocate()
        duplicates.deallocate()
        open.deallocate()
    }

    /// Keeps the memory.
    mutating func reset() {
        tokens.removeAll()
        byteBuffer.removeAll()
        open.removeAll()
    }

    /// Whether another token and `extra` bytes still fit the 32-bit positions.
    func fits(byteCount extra: Int) -> Bool {
        tokenCount < Self.capacityLimit - 1 && byteCount <= Self.capacityLimit - extra
    }

    // MARK: - Recording

    @inline(__always)
    private mutating func countInParent() {
        if openCount > 0 { tokens[Int(open[openCount - 1])].start &+= 1 }
    }

    /// Only for an array: an object counts its keys.
    @inline(__always)
    private mutating func countElementInParent() {
        if openCount > 0 {
            let parent = Int(open[openCount - 1])
            if tokens[parent].kind == .array { tokens[parent].start &+= 1 }
        }
    }

    mutating func beginContainer(isObject: Bool, offset: Int) {
        countElementInParent()
        open.append(Int32(truncatingIfNeeded: tokenCount))
        tokens.append(Token(kind: isObject ? .object : .array, start: 0, length: 0, hint: 0, offset: offset))
    }

    mutating func endContainer() {
        let index = Int(open.removeLast())
        tokens[index].length = Int32(truncatingIfNeeded: tokenCount)
    }

    @inline(__always)
    mutating func key(_ text: UnsafeRawBufferPointer, offset: Int) {
        countInParent()
        let bits = append(.key, text, offset: offset)
        if bits & 0x8080_8080_8080_8080 != 0, openCount > 0 {
            tokens[Int(open[openCount - 1])].flags |= KeyTraits.nonASCII.rawValue
        }
    }

    /// A scalar: its text for strings and numbers, none for the literals.
    mutating func scalar(_ kind: Kind, _ text: UnsafeRawBufferPointer, offset: Int) {
        countElementInParent()
        append(kind, text, offset: offset)
    }

    /// Returns the bytes copied OR-ed together a word at a time: a non-ASCII byte shows in `0x8080_8080_8080_8080`.
    @inline(__always) @discardableResult
    private mutating func append(_ kind: Kind, _ text: UnsafeRawBufferPointer, offset: Int) -> UInt64 {
        let start = byteCount
        let bits = text.count > 0 ? byteBuffer.appendCopying(text) : 0
        tokens.append(
            Token(
                kind: kind, start: Int32(truncatingIfNeeded: start), length: Int32(truncatingIfNeeded: text.count),
                hint: 0, offset: offset))
        return bits
    }

    /// Where recording is, as a JSON path relative to the tape's value (`.items[2].name`); only for an error.
    func openPath() -> String {
        var path = ""
        for container in open.elements {
            let index = Int(container)
            guard index < tokenCount else { break }
            let token = tokens[index]
            if token.kind == .array {
                path += "[\(max(Int(token.start) - 1, 0))]"
                continue
            }
            var lastKey: Int?
            var position = index + 1
            while position < tokenCount {
                guard tokens[position].kind == .key else { break }
                lastKey = position
                let value = position + 1
                guard value < tokenCount else { break }
                let valueToken = tokens[value]
                if valueToken.kind == .object || valueToken.kind == .array {
                    guard valueToken.length > 0 else { break }
                    position = Int(valueToken.length)
                } else {
                    position = value + 1
                }
            }
            if let lastKey { path += "." + String(decoding: bytes(of: lastKey), as: UTF8.self) }
        }
        return path
    }

    // MARK: - Reading

    @inline(__always)
    func next(after index: Int) -> Int {
        let token = tokens[index]
        return token.kind == .object || token.kind == .array ? Int(token.length) : index + 1
    }

    /// Valid until the tape records again or is reset.
    var bytes: UnsafeRawBufferPointer { byteBuffer.buffer }

    /// Valid until the tape records again or is reset.
    @inline(__always)
    func bytes(of index: Int) -> UnsafeRawBufferPointer {
        let token = tokens[index]
        assert(token.kind != .object && token.kind != .array, "Tape: a container has no bytes")
        let start = Int(token.start)
        let count = Int(token.length)
        precondition(start >= 0 && count >= 0 && start + count <= byteCount, "Tape: byte range out of bounds")
        return UnsafeRawBufferPointer(start: byteBuffer.base + start, count: count)
    }

    @inline(__always)
    func key(at index: Int, is key: UnsafeRawBufferPointer) -> Bool {
        let token = tokens[index]
        assert(token.kind == .key, "Tape: not a key")
        guard Int(token.length) == key.count else { return false }
        guard let wanted = key.baseAddress else { return true }
        let start = Int(token.start)
        precondition(start >= 0 && start + key.count <= byteCount, "Tape: key bytes out of bounds")
        return ShortBytes.equal(byteBuffer.base + start, wanted, count: key.count)
    }

    /// Worked out once, in one pass over the keys.
    mutating func keyTraits(ofObjectAt index: Int) -> KeyTraits {
        precondition(index >= 0 && index < tokenCount, "Tape: token index out of range")
        let known = KeyTraits(rawValue: tokens[index].flags)
        if known.contains(.known) { return known }
        var traits: KeyTraits = .known
        let end = Int(tokens[index].length)
        precondition(end <= tokenCount, "Tape: object end out of range")
        // The look-ups below read the tape through these copies, not `self`, which `duplicates` is part of.
        let tokens = tokens
        let bytes = self.bytes
        func key(_ position: Int) -> UnsafeRawBufferPointer {
            let token = tokens[position]
            // The tape wrote these ranges itself (``append(_:_:offset:)``), inside its byte buffer.
            assert(token.kind == .key, "Tape: not a key")
            return UnsafeRawBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.start) + Int(token.length)])
        }
        duplicates.begin(count: Int(tokens[index].start))
        var position = index + 1
        while position < end {
            assert(position + 1 < tokenCount, "Tape: a key without its value")
            if duplicates.insert(key(position), id: UInt32(truncatingIfNeeded: position), bytesOf: { key(Int($0)) }) {
                traits.insert(.duplicates)
                break
            }
            let value = tokens[position + 1]
            position = value.kind == .object || value.kind == .array ? Int(value.length) : position + 2
        }
        self.tokens[index].flags |= traits.rawValue
        return KeyTraits(rawValue: self.tokens[index].flags)
    }

    @inline(__always)
    mutating func setHint(_ hint: Int, ofObjectAt index: Int) {
        precondition(index >= 0 && index < tokenCount, "Tape: token index out of range")
        tokens[index].hint = Int32(truncatingIfNeeded: hint)
    }
}
