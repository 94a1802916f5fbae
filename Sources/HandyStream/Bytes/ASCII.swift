/// The bytes the scanner and the writers compare against.
enum ASCII {
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let period = UInt8(ascii: ".")
    static let lowerE = UInt8(ascii: "e")
    static let upperE = UInt8(ascii: "E")
    static let backslash = UInt8(ascii: "\\")
    static let quote = UInt8(ascii: "\"")
    static let comma = UInt8(ascii: ",")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let closeBracket = UInt8(ascii: "]")
    static let closeBrace = UInt8(ascii: "}")

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- zero <= 9 }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// JSON's white space: space, tab, line feed, carriage return.
    @inline(__always)
    static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == newline || byte == carriageReturn
    }

    /// A hexadecimal digit's value, either case; `nil` for any other byte.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        if isDigit(byte) { return byte - zero }
        let lower = byte | 0x20
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f") ? lower - UInt8(ascii: "a") + 10 : nil
    }

    /// Whether two byte strings are equal but for the case of ASCII letters.
    static func equalIgnoringCase(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        guard first.count == second.count else { return false }
        for index in 0..<first.count where lowercased(first[index]) != lowercased(second[index]) { return false }
        return true
    }
}
