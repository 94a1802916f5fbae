import Foundation
@testable import HandyStream
import Testing

private func decimal(_ text: String, fromString: Bool = false) -> DecimalText? {
    var text = text
    return text.withUTF8 { DecimalText(UnsafeRawBufferPointer($0), fromString: fromString) }
}

private func double(_ text: String) -> Double? {
    var text = text
    return text.withUTF8 { buffer in
        DecimalText(UnsafeRawBufferPointer(buffer)).flatMap { $0.double(text: UnsafeRawBufferPointer(buffer)) }
    }
}

private func float(_ text: String) -> Float? {
    var text = text
    return text.withUTF8 { buffer in
        DecimalText(UnsafeRawBufferPointer(buffer)).flatMap { $0.float(text: UnsafeRawBufferPointer(buffer)) }
    }
}

@Suite("Decimal text")
struct DecimalTextTests {
    @Test(
        "Integers at the edges of their types",
        arguments: [
            ("-9223372036854775808", Int64.min.description, true),
            ("9223372036854775807", Int64.max.description, true),
            ("9223372036854775808", "", false),
            ("-9223372036854775809", "", false),
            ("1.0", "1", true),
            ("1e3", "1000", true),
            ("1000e-3", "1", true),
            ("-0", "0", true),
            ("1.5", "", false),
            ("1e-1", "", false),
            ("123456789012345678901234567890e-20", "", false),
        ])
    func int64(text: String, expected: String, fits: Bool) {
        let value = decimal(text)?.integer(Int64.self)
        #expect((value != nil) == fits, "\(text)")
        if let value { #expect(value.description == expected) }
    }

    @Test("UInt64.max and beyond")
    func uint64() {
        #expect(decimal("18446744073709551615")?.integer(UInt64.self) == UInt64.max)
        #expect(decimal("18446744073709551616")?.integer(UInt64.self) == nil)
        #expect(decimal("-1")?.integer(UInt64.self) == nil)
        #expect(decimal("255")?.integer(UInt8.self) == 255)
        #expect(decimal("256")?.integer(UInt8.self) == nil)
        #expect(decimal("-128")?.integer(Int8.self) == -128)
        #expect(decimal("-129")?.integer(Int8.self) == nil)
    }

    @Test("The powers of five are fast_float's table: exact where 5^q fits in 128 bits, its published ends")
    func powersOfFive() {
        let table = PowersOfFive.table
        func entry(_ q: Int) -> [UInt64] {
            let index = 2 * (q - PowersOfFive.smallestPowerOfTen)
            return Array(UnsafeBufferPointer(start: table + index, count: 2))
        }
        #expect(PowersOfFive.wordCount == 1302)
        #expect(entry(-342) == [0xEEF4_53D6_923B_D65A, 0x113F_AA29_06A1_3B3F])
        #expect(entry(-1) == [0xCCCC_CCCC_CCCC_CCCC, 0xCCCC_CCCC_CCCC_CCCD])
        #expect(entry(-27) == [0x9E74_D1B7_91E0_7E48, 0x775E_A264_CF55_347E])
        #expect(entry(-28) == [0xFD87_B5F2_8300_CA0D, 0x8BCA_9D6E_1888_53FC])
        #expect(entry(308) == [0x8E67_9C2F_5E44_FF8F, 0x570F_09EA_A7EA_7648])
        var power: (high: UInt64, low: UInt64) = (0, 1)
        for q in 0...55 {
            let shift = power.high == 0 ? 64 + power.low.leadingZeroBitCount : power.high.leadingZeroBitCount
            let high =
                shift >= 64
                ? power.low << UInt64(shift - 64)
                : power.high << UInt64(shift) | (shift == 0 ? 0 : power.low >> UInt64(64 - shift))
            let low = shift >= 64 ? 0 : power.low << UInt64(shift)
            #expect(entry(q) == [high, low], "5^\(q)")
            let (carry, low5) = power.low.multipliedFullWidth(by: 5)
            power = (power.high &* 5 &+ carry, low5)
        }
    }

    @Test("The built powers of five are, word for word, those Python's integers give (generate-powers-of-five.py)")
    func powersOfFiveAgainstPython() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/powers-of-five.txt")
        let rows = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(rows.count * 2 == PowersOfFive.wordCount)
        for row in rows {
            let fields = row.split(separator: " ")
            let q = try #require(Int(fields[0]))
            let index = 2 * (q - PowersOfFive.smallestPowerOfTen)
            #expect(PowersOfFive.table[index] == UInt64(fields[1], radix: 16), "5^\(q), high word")
            #expect(PowersOfFive.table[index + 1] == UInt64(fields[2], radix: 16), "5^\(q), low word")
        }
    }

    @Test("Doubles are exact at the edges")
    func doubles() {
        #expect(double("1e308") == 1e308)
        #expect(double("5e-324") == 5e-324)
        #expect(double("-0.0")?.sign == .minus)
        #expect(double("-0.0") == 0)
        #expect(double("1e400") == nil)
        #expect(double("-1e400") == nil)
        #expect(double("1e-400") == 0)
        #expect(double("1.7976931348623157e308") == .greatestFiniteMagnitude)
        #expect(double("2.2250738585072014e-308") == 2.2250738585072014e-308)
        #expect(double("12345678901234567890") == 12345678901234567890.0)
        #expect(double("0.1") == 0.1)
        #expect(double("9007199254740993") == 9007199254740992)  // ties to even
        #expect(double(String(repeating: "9", count: 400)) == nil)
        #expect(double("0." + String(repeating: "0", count: 400) + "1") == 0)
    }

    @Test("Random doubles read back exactly", arguments: 0..<4)
    func randomRoundTrip(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed))
        for _ in 0..<5_000 {
            let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let text = "\(value)"
            #expect(double(text) == value, "\(text)")
            let short = String(format17: value)
            #expect(double(short) == Double(short), "\(short)")
        }
    }

    @Test("Random decimal texts of any length and exponent match Swift's correctly rounded parser", arguments: 0..<4)
    func randomDecimals(seed: Int) {
        var generator = SplitMix64(seed: UInt64(100 + seed))
        for _ in 0..<20_000 {
            let digitCount = Int.random(in: 1...25, using: &generator)
            var digits = String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<digitCount { digits.append(String(Int.random(in: 0...9, using: &generator))) }
            let point = Int.random(in: 0...digitCount, using: &generator)
            var text =
                point == digitCount
                ? digits
                : String(digits.prefix(max(point, 1))) + "." + String(digits.dropFirst(max(point, 1)))
            if text.hasSuffix(".") { text.removeLast() }
            let exponent = Int.random(in: -345...330, using: &generator)
            if Bool.random(using: &generator) { text += "e\(exponent)" }
            if Bool.random(using: &generator) { text = "-" + text }
            let expected = Double(text)!
            if expected.isFinite {
                #expect(double(text)?.bitPattern == expected.bitPattern, "\(text)")
            } else {
                #expect(double(text) == nil, "\(text)")
            }
        }
    }

    @Test(
        "Halfway cases and the edges of the fast paths",
        arguments: [
            "9007199254740993", "9007199254740995", "2.2250738585072011e-308", "2.2250738585072012e-308",
            "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623157e308",
            "1.7976931348623158e308", "1.7976931348623159e308", "0.1", "0.30000000000000004",
            "123456789012345678901234",
            "1e23", "8.98846567431158e307", "7.2057594037927933e16", "-65.613616999999977",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
        ])
    func edgeCases(text: String) {
        let expected = Double(text)!
        #expect(double(text)?.bitPattern == (expected.isFinite ? expected.bitPattern : nil), "\(text)")
    }

    @Test("Floats are correctly rounded")
    func floats() {
        #expect(float("3.4028235e38") == .greatestFiniteMagnitude)
        #expect(float("3.5e38") == nil)
        #expect(float("0.1") == Float(0.1))
        #expect(float("16777217") == 16777216)
        #expect(float("1.00000017881393432617187499") == 1.0000001)  // double rounding would give 1.0000002
    }

    @Test("A fraction's digits, read eight and four at a time, whatever length and whatever follows")
    func fractionRuns() {
        let digits = "98765432109876543210"
        for length in 1...digits.count {
            let fraction = String(digits.prefix(length))
            for text in ["1.\(fraction)", "-12.\(fraction)", "0.\(fraction)e7", "3.\(fraction)E-2", "5.\(fraction)e+0"]
            {
                #expect(double(text)?.bitPattern == Double(text)!.bitPattern, "\(text)")
            }
            // A byte just past '9' or before '0' ends the digits; in a string that is not a number.
            for bad in [":", "/", " ", "x"] {
                #expect(decimal("1.\(fraction)\(bad)", fromString: true) == nil, "1.\(fraction)\(bad)")
                #expect(decimal("1.\(fraction)\(bad)5", fromString: true) == nil, "1.\(fraction)\(bad)5")
            }
        }
        // Every digit value at every position of a four- and an eight-digit run.
        for position in 0..<12 {
            for digit in 0...9 {
                var bytes = Array("111111111111".utf8)
                bytes[position] = UInt8(ascii: "0") + UInt8(digit)
                let text = "0." + String(decoding: bytes, as: UTF8.self)
                #expect(double(text)?.bitPattern == Double(text)!.bitPattern, "\(text)")
            }
        }
    }

    @Test("A number token's text, read by runs of digits, gives what the checked reading gives", arguments: 0..<4)
    func tokens(seed: Int) {
        var generator = SplitMix64(seed: UInt64(300 + seed))
        for _ in 0..<20_000 {
            var text = Bool.random(using: &generator) ? "-" : ""
            let integerDigits = Int.random(in: 1...22, using: &generator)
            text += integerDigits == 1 ? String(Int.random(in: 0...9, using: &generator)) : ""
            if integerDigits > 1 {
                text += String(Int.random(in: 1...9, using: &generator))
                for _ in 1..<integerDigits { text += String(Int.random(in: 0...9, using: &generator)) }
            }
            if Bool.random(using: &generator) {
                text += "."
                for _ in 0..<Int.random(in: 1...24, using: &generator) {
                    text += String(Int.random(in: 0...9, using: &generator))
                }
            }
            if Int.random(in: 0..<3, using: &generator) == 0 {
                text += ["e", "E", "e+", "e-", "E-"].randomElement(using: &generator)!
                text += String(Int.random(in: 0...400, using: &generator))
            }
            tokenMatchesCheckedReading(text)
        }
        // Every run length of integer part and fraction, and every digit value at every position of a long run.
        for integerDigits in 1...21 {
            for fractionDigits in 0...21 {
                let integer = "9" + String(String(repeating: "0123456789", count: 3).prefix(integerDigits - 1))
                let fraction = String(String(repeating: "4051627389", count: 3).prefix(fractionDigits))
                let text = fractionDigits == 0 ? integer : "\(integer).\(fraction)"
                for form in [text, "-" + text, text + "e-5", text + "E+12"] { tokenMatchesCheckedReading(form) }
            }
        }
        for position in 0..<17 {
            for digit in 0...9 {
                var bytes = Array("12345678901234567".utf8)
                bytes[position] = UInt8(ascii: "0") + UInt8(digit)
                let digits = String(decoding: bytes, as: UTF8.self)
                // (No leading zero: JSON has none.)
                for text in [
                    "1" + digits, "0." + digits, "1" + digits.prefix(position) + "." + digits.dropFirst(position),
                ] {
                    tokenMatchesCheckedReading(text)
                }
            }
        }
    }

    @Test("Plain integer tokens are read directly, at every length, and every other token is left to the full reading")
    func plainIntegers() {
        func plain<T: FixedWidthInteger>(_ text: String, _: T.Type) -> T?? {
            // Digits right before and after the token: reading one of them would change the value.
            let padded = Array(("98765432" + text + "98765432").utf8)
            return padded.withUnsafeBytes { buffer in
                DecimalText.plainInteger(
                    token: UnsafeRawBufferPointer(rebasing: buffer[8..<(8 + text.utf8.count)]), as: T.self)
            }
        }
        let digits = "9876543210123456789"
        for length in 1...19 {
            for first in ["1", "9"] {
                let number = first + digits.suffix(length - 1)
                for text in [number, "-" + number] {
                    #expect(plain(text, Int64.self) == .some(Int64(text)), "\(text)")
                    #expect(plain(text, UInt64.self) == .some(UInt64(text)), "\(text)")
                    #expect(plain(text, Int8.self) == .some(Int8(text)), "\(text)")
                    #expect(plain(text, Int.self) == .some(Int(text)), "\(text)")
                }
            }
        }
        #expect(plain("0", Int.self) == .some(0))
        #expect(plain("-0", Int.self) == .some(0))
        #expect(plain("-9223372036854775808", Int64.self) == .some(Int64.min))
        #expect(plain("9223372036854775808", Int64.self) == .some(nil))
        for other in ["1.5", "12345678.5", "1e5", "123456789e1", "-", "", "12345678901234567890", "1.0"] {
            #expect(plain(other, Int64.self) == .none, "\(other)")
        }
    }

    @Test("A number token is read within its bounds, whatever bytes lie around it")
    func tokensWithinBounds() {
        for text in ["1.5", "-65.613616999999977", "12345678", "0.12345678", "1234567.8", "7e1", "123456789012"] {
            let expected = Double(text)!
            // Digits right before and after the token: reading one of them would change the value.
            let padded = Array(("98765432" + text + "98765432").utf8)
            let value = padded.withUnsafeBytes { buffer in
                DecimalText.double(token: UnsafeRawBufferPointer(rebasing: buffer[8..<(8 + text.utf8.count)]))
            }
            #expect(value?.bitPattern == expected.bitPattern, "\(text)")
            let integer = padded.withUnsafeBytes { buffer in
                DecimalText(token: UnsafeRawBufferPointer(rebasing: buffer[8..<(8 + text.utf8.count)]))?.integer(
                    Int64.self)
            }
            #expect(integer == Int64(exactly: expected), "\(text)")
        }
    }

    /// `DecimalText.double(token:)` of `text`, with digits right before and after the token: reading one of them
    /// would change the value.
    static func paddedTokenDouble(_ text: String) -> Double? {
        let padded = Array(("98765432" + text + "98765432").utf8)
        return padded.withUnsafeBytes { buffer in
            DecimalText.double(token: UnsafeRawBufferPointer(rebasing: buffer[8..<(8 + text.utf8.count)]))
        }
    }

    @Test("Number tokens of one to seven bytes, read from one word, give Swift's correctly rounded value")
    func shortTokens() {
        let double = Self.paddedTokenDouble
        // Every integer below 10^4 with every placement of a point and a sign, then random digits at every length.
        for value in 0..<10_000 {
            let digits = String(value)
            var forms = [digits]
            for point in 1..<max(1, digits.count) {
                forms.append(String(digits.prefix(point)) + "." + String(digits.dropFirst(point)))
            }
            forms.append("0." + digits)
            for text in forms + forms.map({ "-" + $0 }) where text.utf8.count <= 7 {
                #expect(double(text)?.bitPattern == Double(text)!.bitPattern, "\(text)")
            }
        }
        var generator = SplitMix64(seed: 0x5407)
        for _ in 0..<20_000 {
            let negative = Bool.random(using: &generator)
            let digitCount = Int.random(in: 1...(negative ? 6 : 7), using: &generator)
            var digits = (0..<digitCount).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            if digitCount > 1 && digits.first == "0" { digits = "1" + digits.dropFirst() }
            var text = (negative ? "-" : "") + digits
            if digitCount >= 3 && Bool.random(using: &generator) {
                // A point inside, and no leading zero before it.
                let point = Int.random(in: 1...(digitCount - 2), using: &generator)
                let integer = String(digits.prefix(point))
                let fraction = String(digits.dropFirst(point).dropFirst())
                text =
                    (negative ? "-" : "") + (integer.count > 1 && integer.first == "0" ? "1" : "")
                    + (integer.count > 1 && integer.first == "0" ? String(integer.dropFirst()) : integer) + "."
                    + fraction
            } else if digitCount >= 3 && Bool.random(using: &generator) {
                // An exponent: left to the general reading.
                text = (negative ? "-" : "") + String(digits.prefix(digitCount - 2)) + "e" + String(digits.suffix(1))
            }
            #expect(double(text)?.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
        // Short text that is not a JSON number is none.
        for text in [
            "1.", ".5", "01", "-01", "00", "1..2", "-", "1.2.3", "-.5", "1e", "0.", "1.2e", "+1", "1e+", "--1", "1-",
        ] {
            #expect(double(text) == nil, "\(text)")
        }
    }

    @Test("Number tokens of one to seven bytes with an exponent give Swift's correctly rounded value, every shape")
    func shortExponentTokens() {
        let double = Self.paddedTokenDouble
        // Mantissas of every shape (a point or none, leading zero only alone), exponents of every sign and spelling
        // (leading zeros, `E`), from inside Clinger's exact powers to well outside them.
        let mantissas = [
            "0", "1", "9", "12", "0.5", "1.5", "2.25", "99", "123", "1.25", "0.125", "9999", "1234", "12345", "0.0",
        ]
        var checked = 0
        for mantissa in mantissas {
            for exponent in -40...40 {
                for marker in ["e", "E"] {
                    var spellings = [marker + String(exponent)]
                    if exponent >= 0 {
                        spellings += [marker + "+" + String(exponent), marker + "0" + String(exponent)]
                    }
                    if exponent < 0 { spellings.append(marker + "-0" + String(-exponent)) }
                    for spelling in spellings {
                        for text in [mantissa + spelling, "-" + mantissa + spelling] where text.utf8.count <= 7 {
                            #expect(double(text)?.bitPattern == Double(text)!.bitPattern, "\(text)")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 2_000)
        for text in ["1e99999", "-1e-9999", "9e308", "1e-400"] {
            #expect(double(text)?.bitPattern == Double(text).flatMap { $0.isFinite ? $0.bitPattern : nil }, "\(text)")
        }
    }

    @Test("Text of the common shape's length that is not a JSON number is no number, by the straight reading too")
    func notQuiteDecimalTokens() {
        // Eight bytes or more after the sign, a point within the first eight: the shape read in a straight line.
        func double(_ text: String) -> Double? {
            var utf8 = text
            return utf8.withUTF8 { DecimalText.double(token: UnsafeRawBufferPointer($0)) }
        }
        for text in [
            "01.2345678", "-00.2345678", "1234567.", "-1234567.", "12.3456789e", "12.345678901-",
            "1.23456789012345678.", "1..2345678", "12.3456789.1", "12.34567-8",
        ] {
            #expect(double(text) == nil, "\(text)")
        }
        for text in ["12.34567e8", "12345678.9", "0.2345678", "-0.2345678", "1234567.8", "-1.234567890123456789"] {
            #expect(double(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test(
        "Strings holding numbers",
        arguments: [
            ("+5", true), ("007", true), ("-1.5e3", true), (" 5", false), ("5 ", false), ("0x10", false),
            ("inf", false), ("nan", false), ("", false), ("-", false), ("1.", false), (".5", false), ("1e", false),
        ])
    func stringsHoldingNumbers(text: String, accepted: Bool) {
        #expect((decimal(text, fromString: true) != nil) == accepted, "\(text)")
    }

    @Test("JSON number text is strict")
    func jsonText() {
        #expect(decimal("007") == nil)
        #expect(decimal("+5") == nil)
        #expect(decimal("0") != nil)
    }
}

/// Reads `text` as a number token and by the reading that checks every byte: the same parts, the same `Double`
/// (Swift's correctly rounded parser's) and the same integer.
private func tokenMatchesCheckedReading(_ text: String) {
    var utf8 = text
    utf8.withUTF8 { buffer in
        let bytes = UnsafeRawBufferPointer(buffer)
        let token = DecimalText(token: bytes)
        let checked = DecimalText(bytes)
        #expect(token != nil && checked != nil, "\(text)")
        guard let token, let checked else { return }
        #expect(token.significand == checked.significand, "\(text)")
        #expect(token.exponent == checked.exponent, "\(text)")
        #expect(token.droppedNonZero == checked.droppedNonZero, "\(text)")
        #expect(token.isNegative == checked.isNegative && token.hasFractionOrExponent == checked.hasFractionOrExponent)
        let expected = Double(String(decoding: buffer, as: UTF8.self))!
        #expect(
            DecimalText.double(token: bytes)?.bitPattern == (expected.isFinite ? expected.bitPattern : nil), "\(text)")
        #expect(token.integer(Int64.self) == checked.integer(Int64.self), "\(text)")
    }
}

/// A small deterministic generator, so that failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    /// `HANDYSTREAM_TEST_SEED=N` (N > 0) varies every seeded generator of the tests, for a run that explores cases
    /// CI does not check; unset, the cases are CI's. A failure found so is reproduced with the same N.
    static let variation = UInt64(ProcessInfo.processInfo.environment["HANDYSTREAM_TEST_SEED"] ?? "") ?? 0

    private var state: UInt64
    init(seed: UInt64) { state = (seed ^ (Self.variation &* 0xD6E8_FEB8_6659_FD93)) &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension String {
    /// A 17-significant-digit rendering in exponent form, as other JSON writers produce.
    init(format17 value: Double) {
        var digits = ""
        var exponent = 0
        if value != 0 {
            exponent = Int((log10(abs(value))).rounded(.down))
            let scaled = value / pow(10, Double(exponent))
            digits = "\(scaled)"
        } else {
            digits = "0.0"
        }
        self = "\(digits)e\(exponent)"
    }
}

import Foundation
