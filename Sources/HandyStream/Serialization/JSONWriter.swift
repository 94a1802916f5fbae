import Foundation

/// Appends JSON text, compact or pretty printed, to one byte buffer; strings are escaped per RFC 8259 and stay UTF-8.
/// With `buildsValues`, the same calls build Foundation-style values (`toJSON()`), numbers keeping their types.
struct JSONWriter {
    /// Frees ``out`` once no copy of the writer is left.
    private let output = OutputStorage()
    /// The text, shared by the writer's copies; read in place (`out.pointee.buffer`), not through ``bytes``, which
    /// copies it into an array.
    let out: UnsafeMutablePointer<OutputBytes>
    var bytes: [UInt8] { out.pointee.array }
    let options: EncodingOptions
    /// Open containers, for indentation and the depth cap.
    private(set) var depth = 0
    private var needsComma = false
    /// A plain flag: testing an optional `ValueTree` on every call would go through its value witness.
    let buildsValues: Bool
    private var values = ValueTree()
    /// Write as `JSONEncoder` does: `/` escaped, integral floating-point numbers without `.0`, and when pretty
    /// printed `" : "` after keys and empty containers on two lines.
    var foundationStyle = false

    init(options: EncodingOptions, buildsValues: Bool = false) {
        self.options = options
        self.buildsValues = buildsValues
        out = output.bytes
    }

    var builtValue: Any? { values.result }

    // Out of line, so that writing text never asks the runtime for the value tree's metadata.
    @inline(never)
    private mutating func _slowpath_open(isObject: Bool) { values.open(isObject: isObject) }
    @inline(never)
    private mutating func _slowpath_close() { values.close() }
    @inline(never)
    private mutating func _slowpath_key(_ key: String) { values.key = key }
    /// Also an `Encodable` value's scalar, kept in its own type (``EncodableTree``), as a model's numbers are.
    @inline(never)
    mutating func _slowpath_add(_ value: Any) { values.add(value) }

    // MARK: - Containers

    mutating func beginObject() throws(JSONEncodingError) { try open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() throws(JSONEncodingError) { try open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) throws(JSONEncodingError) {
        depth += 1
        if depth > options.maximumDepth {
            throw JSONEncodingError(
                message: "nesting deeper than \(options.maximumDepth) levels (a cycle in the object graph?)")
        }
        if buildsValues { return _slowpath_open(isObject: bracket == UInt8(ascii: "{")) }
        out.pointee.append(bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if buildsValues { return _slowpath_close() }
        if options.prettyPrinted && needsComma {
            newline()
        } else if options.prettyPrinted && foundationStyle {
            out.pointee.append(UInt8(ascii: "\n"))
            newline()
        }
        out.pointee.append(bracket)
        needsComma = true
    }

    /// Starts an object member whose key is already quoted and escaped (`"name"`).
    mutating func key(quoted: [UInt8], _ key: @autoclosure () -> String) {
        if buildsValues { return _slowpath_key(key()) }
        separate()
        out.pointee.append(contentsOf: quoted)
        colon()
    }

    mutating func key(_ key: String) {
        if buildsValues { return _slowpath_key(key) }
        var key = key
        key.withUTF8 { self.key(bytes: UnsafeRawBufferPointer($0)) }
    }

    private mutating func colon() {
        if options.prettyPrinted && foundationStyle { out.pointee.append(UInt8(ascii: " ")) }
        out.pointee.append(UInt8(ascii: ":"))
        if options.prettyPrinted { out.pointee.append(UInt8(ascii: " ")) }
        needsComma = false
    }

    mutating func element() {
        separate()
        needsComma = false
    }

    private mutating func separate() {
        if needsComma { out.pointee.append(UInt8(ascii: ",")) }
        if options.prettyPrinted { newline() }
    }

    private mutating func newline() {
        out.pointee.append(UInt8(ascii: "\n"))
        for _ in 0..<depth {
            out.pointee.append(0x20)
            out.pointee.append(0x20)
        }
    }

    // MARK: - Scalars

    mutating func null() {
        if buildsValues { return _slowpath_add(NSNull()) }
        raw("null")
    }
    mutating func bool(_ value: Bool) {
        if buildsValues { return _slowpath_add(value) }
        raw(value ? "true" : "false")
    }

    /// No `String` per number.
    mutating func integer<T: BinaryInteger>(_ value: T) {
        if buildsValues { return _slowpath_add(value) }
        if let signed = Int64(exactly: value) {
            decimal(signed.magnitude, negative: signed < 0)
        } else if let unsigned = UInt64(exactly: value) {
            decimal(unsigned, negative: false)
        } else {
            raw("\(value)")  // wider than 64 bits
        }
    }

    private mutating func decimal(_ magnitude: UInt64, negative: Bool) {
        if negative { out.pointee.append(ASCII.minus) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = magnitude
            var start = 20
            repeat {
                start -= 1
                digits[start] = ASCII.zero &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest != 0
            out.pointee.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
        needsComma = true
    }

    /// A `Double` or `Float`: Swift's `description` is the shortest text that reads back as the same value. Inlined,
    /// so that each call stays specialized.
    @inline(__always)
    mutating func floatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: F
    ) throws(JSONEncodingError) {
        guard value.isFinite else { return try nonFinite(value.isNaN ? "nan" : value < 0 ? "-inf" : "inf") }
        if buildsValues { return _slowpath_add(value) }
        floatingPoint(text: value.description)
    }

    /// In Foundation's style without an integral value's `.0` (`100`).
    private mutating func floatingPoint(text: String) {
        guard foundationStyle, text.hasSuffix(".0") else { return raw(text) }
        raw(String(text.dropLast(2)))
    }

    mutating func decimal(_ value: Decimal) throws(JSONEncodingError) {
        // JSONEncoder writes a NaN Decimal as `NaN`: not JSON, but what it writes.
        if value.isNaN && foundationStyle && !buildsValues { return raw("NaN") }
        if value.isNaN { return try nonFinite("nan") }
        if buildsValues { return _slowpath_add(value) }
        raw(value.description)
    }

    mutating func number(_ value: NSNumber) throws(JSONEncodingError) {
        if value.isBoolean { return bool(value.boolValue) }
        guard let text = value.jsonText else { return try nonFinite(value.doubleValue.isNaN ? "nan" : "inf") }
        if buildsValues { return _slowpath_add(value) }
        raw(text)
    }

    mutating func rawJSON(bytes text: UnsafeRawBufferPointer) {
        if buildsValues { return _slowpath_add((try? ModelDecoder().decode(Any.self, from: Array(text))) ?? NSNull()) }
        out.pointee.append(contentsOf: text)
        needsComma = true
    }

    /// JSON text written by another writer with the same options (built values read it back).
    mutating func rawJSON(_ text: [UInt8]) {
        text.withUnsafeBytes { rawJSON(bytes: $0) }
    }

    /// A number's text as it is (a `JSONValue`'s, a number wider than 64 bits).
    mutating func numberText(_ text: String) {
        var text = text
        text.withUTF8 { numberText(bytes: UnsafeRawBufferPointer($0)) }
    }

    private mutating func nonFinite(_ name: String) throws(JSONEncodingError) {
        switch options.nonFiniteNumbers {
        case .throwError:
            throw JSONEncodingError(message: "\(name) is not a JSON number; set EncodingOptions.nonFiniteNumbers")
        case .null: null()
        case .string: string(name)
        }
        needsComma = true
    }

    private mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { out.pointee.append(contentsOf: $0) }
        needsComma = true
    }

    /// `verbatim`: as in ``string(bytes:verbatim:)``.
    mutating func key(bytes: UnsafeRawBufferPointer, verbatim: Bool = false) {
        if buildsValues { return _slowpath_key(String(jsonBytes: bytes)) }
        separate()
        string(bytes: bytes.assumingMemoryBound(to: UInt8.self), verbatim: verbatim)
        colon()
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { string(bytes: $0) }
    }

    /// `verbatim`: the bytes are a document's text between quotes with nothing to escape but `/`
    /// (``Tokenizer/isVerbatim(_:)``), copied as they are unless slashes are escaped.
    mutating func string(bytes utf8: UnsafeBufferPointer<UInt8>, verbatim: Bool = false) {
        if buildsValues { return _slowpath_add(String(decoding: utf8, as: UTF8.self)) }
        out.pointee.append(UInt8(ascii: "\""))
        let slash = foundationStyle && options.escapesSlashes
        if verbatim && !slash {
            out.pointee.append(contentsOf: utf8)
        } else if let base = utf8.baseAddress {
            let count = utf8.count
            var runStart = 0
            var index = 0
            // Eight bytes at a time while none needs an escape; then that word's escapes at once, or the tail, read
            // as the text's last word with the bytes already read shifted out.
            while index < count {
                while Self.littleEndian && index &+ 8 <= count,
                    !Self.mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self), slash: slash)
                {
                    index &+= 8
                }
                guard index < count else { break }
                // `valid`: the word's bytes from `index` on; none for text under eight bytes or on big-endian
                // machines, then read one by one.
                var word: UInt64 = 0
                var valid: UInt64 = 0
                if Self.littleEndian && index &+ 8 <= count {
                    word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    valid = ~0
                } else if Self.littleEndian && count >= 8 {
                    let shift = UInt64((8 &- (count &- index)) &* 8)
                    word = UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self) &>> shift
                    valid = ~0 &>> shift
                }
                if valid == 0 {
                    let byte = base[index]
                    if Self.needsEscape(byte, slash: slash) {
                        out.pointee.append(
                            contentsOf: UnsafeBufferPointer(start: base + runStart, count: index &- runStart))
                        escape(byte)
                        runStart = index &+ 1
                    }
                    index &+= 1
                    continue
                }
                var found = Self.escapes(in: word, slash: slash) & valid
                while found != 0 {
                    let at = index &+ found.trailingZeroBitCount &>> 3
                    out.pointee.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: at &- runStart))
                    escape(base[at])
                    runStart = at &+ 1
                    found &= found &- 1
                }
                index = Swift.min(index &+ 8, count)
            }
            out.pointee.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count &- runStart))
        }
        out.pointee.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Whether any byte of `word` may need an escape (``needsEscape(_:slash:)``): never a false "no", and cheaper
    /// than ``escapes(in:slash:)``, which then finds which.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64, slash: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // A byte below 0x20, or equal to c (zero in word ^ c), borrows, setting its high bit; `& ~word` keeps only
        // ASCII bytes, whose high bit (and word ^ c's: every c is ASCII) was clear.
        var borrows = (word &- 0x20 &* ones) | ((word ^ 0x22 &* ones) &- ones) | ((word ^ 0x5C &* ones) &- ones)
        if slash { borrows |= (word ^ 0x2F &* ones) &- ones }
        return borrows & ~word & 0x8080_8080_8080_8080 != 0
    }

    /// As ``escapes(in:slash:)`` reads a word: its first byte in memory is its low byte.
    private static var littleEndian: Bool {
        #if _endian(little)
        true
        #else
        false
        #endif
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8, slash: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (byte == UInt8(ascii: "/") && slash)
    }

    /// The bytes of `word` (first in the low byte) that ``needsEscape(_:slash:)``, each one's high bit set. Exact:
    /// seven bits plus at most 0x7F never carry into the next byte, and a non-ASCII byte is never one.
    @inline(__always)
    private static func escapes(in word: UInt64, slash: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low = 0x7F &* ones
        let high = 0x80 &* ones
        // Bytes below 0x20: their low seven bits plus 0x60 stay below 0x80.
        let clear = (word & low) &+ 0x60 &* ones
        // Bytes equal to c: zero in word ^ c, whose low seven bits plus 0x7F then stay below 0x80.
        func equal(_ c: UInt64) -> UInt64 {
            let difference = word ^ (c &* ones)
            return ((difference & low) &+ low) | difference
        }
        var hits = ~(clear | word)
        hits |= ~equal(0x22)
        hits |= ~equal(0x5C)
        if slash { hits |= ~equal(0x2F) }
        return hits & high
    }

    /// Number text as the document wrote it (built values read it as `Any` does: `Int`, else `Double`).
    mutating func numberText(bytes text: UnsafeRawBufferPointer) {
        if buildsValues { return _slowpath_add(AnyCodec.foundationNumber(text) ?? String(jsonBytes: text)) }
        out.pointee.append(contentsOf: text)
        needsComma = true
    }

    /// Keeps the buffer's capacity.
    mutating func reset() {
        if buildsValues { values = ValueTree() }
        out.pointee.removeAll()
        depth = 0
        needsComma = false
    }

    private mutating func escape(_ byte: UInt8) {
        out.pointee.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.pointee.append(byte)
        case 0x0A: out.pointee.append(UInt8(ascii: "n"))
        case 0x0D: out.pointee.append(UInt8(ascii: "r"))
        case 0x09: out.pointee.append(UInt8(ascii: "t"))
        case 0x08: out.pointee.append(UInt8(ascii: "b"))
        case 0x0C: out.pointee.append(UInt8(ascii: "f"))
        default:
            let hex = Self.hexDigits
            out.pointee.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// The Foundation-style values a value-building ``JSONWriter`` makes: an explicit stack of open containers.
private struct ValueTree {
    private var open: [(isObject: Bool, elements: [Any], members: [String: Any], key: String)] = []
    var key = ""
    private(set) var result: Any?

    mutating func open(isObject: Bool) {
        open.append((isObject, [], [:], key))
    }

    mutating func close() {
        let container = open.removeLast()
        key = container.key
        add(container.isObject ? container.members as Any : container.elements as Any)
    }

    mutating func add(_ value: Any) {
        guard !open.isEmpty else { return result = value }
        if open[open.count - 1].isObject {
            open[open.count - 1].members[key] = value
        } else {
            open[open.count - 1].elements.append(value)
        }
    }
}

/// A value that can't be written as JSON: a non-finite number (unless an option says how), or an object graph
/// deeper than the cap (a cycle).
public struct JSONEncodingError: Error, CustomStringConvertible, LocalizedError, Sendable {
    /// What can't be written, and why.
    public var message: String
    public var description: String { message }
    /// The description, for `localizedDescription`.
    public var errorDescription: String? { message }
}

/// Owns a writer's text for as long as any copy of the writer.
final class OutputStorage {
    let bytes = UnsafeMutablePointer<OutputBytes>.allocate(capacity: 1)
    init() { bytes.initialize(to: OutputBytes()) }
    deinit {
        bytes.pointee.deallocate()
        bytes.deinitialize(count: 1)
        bytes.deallocate()
    }
}
