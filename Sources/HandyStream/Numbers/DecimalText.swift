internal import CYajl

/// A base-10 number read exactly from its text: a number token's raw bytes, or a JSON string holding a number. The
/// significand keeps as many leading significant digits as fit in a `UInt64` (19 or 20); the rest only move the
/// exponent, remembering whether any was not zero. `Double` comes from Clinger's fast path, then Eisel–Lemire, then
/// the C library's correctly rounded `strtod` in the C locale, on a NUL-terminated copy (yajl's buffers have none).
struct DecimalText {
    var isNegative = false
    var significand: UInt64 = 0
    /// value = ±significand × 10^exponent (plus dropped digits, when `droppedNonZero`).
    var exponent = 0
    /// A digit that did not fit in the significand was not zero: the significand alone is not the exact value.
    var droppedNonZero = false
    /// Written with a fraction or an exponent (`1.0`, `1e3`): Foundation-style `Any` values make these `Double`.
    var hasFractionOrExponent = false

    /// Exponents are clamped to this: past it any non-zero value is out of range, and the arithmetic can't overflow.
    private static let exponentClamp = 1 << 59

    /// Reads `-?digits(.digits)?([eE][+-]?digits)?`; `fromString` also takes a leading `+` and leading zeros (as
    /// `Int(_:)` does). `nil` for anything else: blanks, `inf`, `nan`, hexadecimal.
    init?(_ text: UnsafeRawBufferPointer, fromString: Bool = false) {
        guard let number = Self.read(text, fromString: fromString) else { return nil }
        self = number
    }

    /// Reads a number token's text: digits and `-+.eE` only, so that a digit is told by its bit 0x10. Other bytes may
    /// read as a wrong number or none, never out of bounds; for any other text use ``init(_:fromString:)``.
    init?(token text: UnsafeRawBufferPointer) {
        guard let number = Self.read(text, fromString: false, token: true) else { return nil }
        self = number
    }

    /// The correctly rounded `Double` of a number token, in one function so that its parts stay in registers.
    @inline(__always)
    static func double(token text: UnsafeRawBufferPointer) -> Double? {
        #if _endian(little)
        if let base = text.baseAddress, text.count < 8 {
            // Up to seven digits and at most six of them in the fraction: Clinger's exact case.
            if let (significand, fractionDigits, negative) = shortToken(base, text.count) {
                let result = Double(significand) / Self.exactPowersOfTen[fractionDigits]
                return negative ? -result : result
            }
            if let result = shortExponentToken(base, text.count) { return result }
        } else if let base = text.baseAddress,
            let (significand, fractionDigits, negative) = pointToken(base, text.count)
        {
            // At most 16 fraction digits: within Clinger's exact powers, and the value within Double's range.
            if significand <= Self.maximumExactSignificand {
                let result = Double(significand) / Self.exactPowersOfTen[fractionDigits]
                return negative ? -result : result
            }
            // Above 2^53 (16 digits or more) with at most 16 fraction digits: over 0.9, a normal Double; and with at
            // most seven integer digits, so at least nine fraction digits (q <= -9): never exactly halfway.
            guard
                var result = Self.eiselLemireSteps(
                    significand, -fractionDigits, normal: true, maybeHalfway: false)
            else {
                return _slowpath_strtod(text)
            }
            if negative { result.negate() }
            return result
        }
        #endif
        guard let number = read(text, fromString: false, token: true) else { return nil }
        return number.double(text: text)
    }

    #if _endian(little)
    /// The significand and fraction digits of a token of one to seven bytes without an exponent (`5`, `-0.5`), read
    /// from one word (``ShortBytes/word(_:count:ordered:)``); `nil` for any other. Only digits have the bit 0x10.
    @inline(__always)
    private static func shortToken(
        _ base: UnsafeRawPointer, _ count: Int
    ) -> (significand: UInt64, fractionDigits: Int, negative: Bool)? {
        var word = ShortBytes.word(base, count: count, ordered: true)
        let negative = word & 0xFF == UInt64(ASCII.minus)
        var digits = count
        if negative {
            word &>>= 8
            digits &-= 1
        }
        guard digits > 0 else { return nil }
        let inToken = (UInt64(1) &<< UInt64(digits &* 8)) &- 1
        let nonDigits = ~word & 0x1010_1010_1010_1010 & inToken
        var integerDigits = digits
        var fractionDigits = 0
        if nonDigits != 0 {
            // One byte that is not a digit, the point, with digits on both sides: the digits after it move down a byte.
            guard nonDigits & (nonDigits &- 1) == 0 else { return nil }
            let point = nonDigits.trailingZeroBitCount &>> 3
            guard (word &>> UInt64(point &* 8)) & 0xFF == UInt64(ASCII.period), point > 0, point < digits &- 1 else {
                return nil
            }
            let below = (UInt64(1) &<< UInt64(point &* 8)) &- 1
            word = (word & below) | ((word &>> 8) & ~below)
            integerDigits = point
            fractionDigits = digits &- point &- 1
            digits &-= 1
        }
        // No leading zero unless alone.
        guard integerDigits == 1 || word & 0xFF != UInt64(ASCII.zero) else { return nil }
        return (Digits.firstDigits(word, digits), fractionDigits, negative)
    }

    /// The `Double` of a token of one to seven bytes with an exponent (`1e2`, `-2.5E-3`): at most five digits, so with
    /// a power of ten within Clinger's exact ones (±22) one IEEE operation rounds it correctly; `nil` for any other.
    @inline(never)
    private static func shortExponentToken(_ base: UnsafeRawPointer, _ count: Int) -> Double? {
        let negative = base.load(as: UInt8.self) == ASCII.minus
        var index = negative ? 1 : 0
        var significand = 0
        var fractionDigits = 0
        var inFraction = false
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            let digit = byte &- ASCII.zero
            if digit <= 9 {
                significand = significand &* 10 &+ Int(digit)
                if inFraction { fractionDigits &+= 1 }
            } else if byte == ASCII.period && !inFraction {
                inFraction = true
            } else {
                break
            }
            index &+= 1
        }
        guard index < count, base.load(fromByteOffset: index, as: UInt8.self) | 0x20 == ASCII.lowerE else {
            return nil
        }
        index &+= 1
        guard index < count else { return nil }
        let sign = base.load(fromByteOffset: index, as: UInt8.self)
        let negativeExponent = sign == ASCII.minus
        if negativeExponent || sign == ASCII.plus { index &+= 1 }
        guard index < count else { return nil }
        var exponent = 0
        while index < count {
            let digit = base.load(fromByteOffset: index, as: UInt8.self) &- ASCII.zero
            guard digit <= 9 else { return nil }
            exponent = exponent &* 10 &+ Int(digit)
            index &+= 1
        }
        let power = (negativeExponent ? -exponent : exponent) &- fractionDigits
        guard power >= -22 && power <= 22 else { return nil }
        let value = Double(significand)
        let result = power >= 0 ? value * Self.exactPowersOfTen[power] : value / Self.exactPowersOfTen[-power]
        return negative ? -result : result
    }

    /// The significand and fraction digits of the commonest shape, `-?d{1,7}\.d{1,16}` (at least eight bytes after the
    /// sign, at most 19 digits), read a word at a time (``Digits/firstDigits(_:_:)``); `nil` otherwise.
    @inline(__always)
    private static func pointToken(
        _ base: UnsafeRawPointer, _ count: Int
    ) -> (significand: UInt64, fractionDigits: Int, negative: Bool)? {
        let start = base.load(as: UInt8.self) == ASCII.minus ? 1 : 0
        guard count &- start >= 8 else { return nil }
        let head = base.loadUnaligned(fromByteOffset: start, as: UInt64.self)
        let integerDigits = Digits.leadingTokenDigits(head)
        guard UInt(bitPattern: integerDigits &- 1) < 7,
            (head &>> UInt64(integerDigits &* 8)) & 0xFF == UInt64(ASCII.period),
            integerDigits == 1 || head & 0xFF != UInt64(ASCII.zero)
        else { return nil }
        var significand = Digits.firstDigits(head, integerDigits)
        let fractionStart = start &+ integerDigits &+ 1
        let fractionDigits = count &- fractionStart
        var unread = fractionDigits
        if unread > 8 {
            guard unread <= 16 else { return nil }
            let chunk = base.loadUnaligned(fromByteOffset: fractionStart, as: UInt64.self)
            guard ~chunk & 0x1010_1010_1010_1010 == 0 else { return nil }
            significand = significand &* 100_000_000 &+ Digits.eightDigits(chunk)
            unread &-= 8
        }
        guard unread > 0 else { return nil }
        // The last eight bytes (count - 8 >= start): the first 8 - unread were read before, and become `0`s.
        let last = base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        let readBefore = (UInt64(1) &<< UInt64((8 &- unread) &* 8)) &- 1
        guard ~last & 0x1010_1010_1010_1010 & ~readBefore == 0 else { return nil }
        significand =
            significand &* Digits.powerOfTen(unread)
            &+ Digits.eightDigits((last & ~readBefore) | (0x3030_3030_3030_3030 & readBefore))
        guard integerDigits &+ fractionDigits <= 19 else { return nil }
        return (significand, fractionDigits, start != 0)
    }
    #endif

    static func double(string text: UnsafeRawBufferPointer) -> Double? {
        guard let number = read(text, fromString: true, token: false) else { return nil }
        return number.double(text: text)
    }

    private init() {}

    @inline(__always)
    private static func read(_ text: UnsafeRawBufferPointer, fromString: Bool, token: Bool = false) -> DecimalText? {
        let count = text.count
        guard count > 0, let base = text.baseAddress else { return nil }
        // One pass finds the parts and accumulates every digit: exact up to 19 digits; longer numbers go to `Digits`.
        var index = 0
        var negative = false
        if base.load(as: UInt8.self) == ASCII.minus {
            negative = true
            index = 1
        } else if fromString && base.load(as: UInt8.self) == ASCII.plus {
            index = 1
        }
        var accumulated: UInt64 = 0
        let integerStart = index
        #if _endian(little)
        // An integer part is usually too short for runs to gain: only one of eight digits or more (an id) is.
        let longInteger =
            token && count &- index >= 8
            && ~base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x1010_1010_1010_1010 == 0
        #else
        let longInteger = false
        #endif
        if longInteger {
            Self.accumulateDigitRun(base, count, &index, &accumulated, token: true)
        } else {
            while index < count {
                let digit = base.load(fromByteOffset: index, as: UInt8.self) &- ASCII.zero
                if digit > 9 { break }
                accumulated = accumulated &* 10 &+ UInt64(digit)
                index &+= 1
            }
        }
        let integerEnd = index
        guard integerEnd > integerStart else { return nil }
        if !fromString && integerEnd - integerStart > 1
            && base.load(fromByteOffset: integerStart, as: UInt8.self)
                == ASCII.zero
        {
            return nil
        }
        var fractionStart = index
        var fractionEnd = index
        var fractionOrExponent = false
        if index < count && base.load(fromByteOffset: index, as: UInt8.self) == ASCII.period {
            fractionOrExponent = true
            index += 1
            fractionStart = index
            Self.accumulateDigitRun(base, count, &index, &accumulated, token: token)
            fractionEnd = index
            guard fractionEnd > fractionStart else { return nil }
        }
        var explicitExponent = 0
        if index < count && base.load(fromByteOffset: index, as: UInt8.self) | 0x20 == ASCII.lowerE {
            fractionOrExponent = true
            index += 1
            var negativeExponent = false
            if index < count {
                let sign = base.load(fromByteOffset: index, as: UInt8.self)
                if sign == ASCII.minus || sign == ASCII.plus {
                    negativeExponent = sign == ASCII.minus
                    index += 1
                }
            }
            let exponentStart = index
            while index < count {
                let digit = base.load(fromByteOffset: index, as: UInt8.self) &- ASCII.zero
                if digit > 9 { break }
                if explicitExponent < Self.exponentClamp { explicitExponent = explicitExponent * 10 + Int(digit) }
                index += 1
            }
            guard index > exponentStart else { return nil }
            if negativeExponent { explicitExponent = -explicitExponent }
        }
        guard index == count else { return nil }
        var number = DecimalText()
        number.isNegative = negative
        number.hasFractionOrExponent = fractionOrExponent
        if (integerEnd - integerStart) + (fractionEnd - fractionStart) <= 19 {
            number.significand = accumulated
            number.exponent = explicitExponent - (fractionEnd - fractionStart)
        } else {
            let digits = Digits.read(
                base, integer: integerStart..<integerEnd, fraction: fractionStart..<fractionEnd,
                exponent: explicitExponent)
            number.significand = digits.significand
            number.exponent = digits.exponent
            number.droppedNonZero = digits.droppedNonZero
        }
        return number
    }

    /// Accumulates the run of digits at `index`, moving `index` past it, eight bytes per test; wraps on overflow (used
    /// only up to 19 digits). Returns whether the text ended.
    @inline(__always)
    @discardableResult
    private static func accumulateDigitRun(
        _ base: UnsafeRawPointer, _ count: Int, _ index: inout Int, _ accumulated: inout UInt64, token: Bool
    ) -> Bool {
        #if _endian(little)
        if count >= 8 {
            while count &- index > 8 {
                let chunk = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let run = token ? Digits.leadingTokenDigits(chunk) : Digits.leadingDigits(chunk)
                if run < 8 {
                    if run > 0 {
                        accumulated = accumulated &* Digits.powerOfTen(run) &+ Digits.firstDigits(chunk, run)
                        index &+= run
                    }
                    return false
                }
                accumulated = accumulated &* 100_000_000 &+ Digits.eightDigits(chunk)
                index &+= 8
            }
            // One to eight bytes left: the last eight (count >= 8), those before `index` shifted out; zeros end a run.
            let unread = count &- index
            guard unread > 0 else { return true }
            let last = base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) &>> UInt64((8 &- unread) &* 8)
            let run = token ? Digits.leadingTokenDigits(last) : Digits.leadingDigits(last)
            if run > 0 {
                accumulated = accumulated &* Digits.powerOfTen(run) &+ Digits.firstDigits(last, run)
                index &+= run
            }
            return run == unread
        }
        #endif
        while index < count {
            let digit = base.load(fromByteOffset: index, as: UInt8.self) &- ASCII.zero
            if digit > 9 { return false }
            accumulated = accumulated &* 10 &+ UInt64(digit)
            index &+= 1
        }
        return true
    }

    /// Builds the significand from runs of digits: 19 significant digits always fit in a `UInt64`; a 20th is kept when
    /// it still fits (so 20-digit integers up to `UInt64.max` stay exact); the rest only move the exponent.
    private struct Digits {
        let base: UnsafeRawPointer
        var exponent: Int
        var significand: UInt64 = 0
        var taken = 0
        var droppedAny = false
        var droppedNonZero = false

        @inline(never)
        static func read(
            _ base: UnsafeRawPointer, integer: Range<Int>, fraction: Range<Int>, exponent: Int
        ) -> Digits {
            var digits = Digits(base: base, exponent: exponent)
            var start = integer.lowerBound
            while start < integer.upperBound && base.load(fromByteOffset: start, as: UInt8.self) == ASCII.zero {
                start += 1
            }
            var fractionFirst = fraction.lowerBound
            if start == integer.upperBound {
                while fractionFirst < fraction.upperBound
                    && base.load(fromByteOffset: fractionFirst, as: UInt8.self) == ASCII.zero
                {
                    fractionFirst += 1
                }
                digits.exponent -= fractionFirst - fraction.lowerBound
            }
            digits.accumulate(start, integer.upperBound, inFraction: false)
            digits.accumulate(fractionFirst, fraction.upperBound, inFraction: true)
            return digits
        }

        @inline(__always)
        mutating func accumulate(_ start: Int, _ end: Int, inFraction: Bool) {
            var index = start
            if !droppedAny {
                #if _endian(little)
                while taken <= 11 && end - index >= 8 {
                    let chunk = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    guard Self.leadingDigits(chunk) == 8 else { break }
                    significand = significand &* 100_000_000 &+ Self.eightDigits(chunk)
                    taken &+= 8
                    index &+= 8
                }
                #endif
                while index < end && taken < 19 {
                    significand =
                        significand &* 10 &+ UInt64(base.load(fromByteOffset: index, as: UInt8.self) &- ASCII.zero)
                    taken &+= 1
                    index &+= 1
                }
                if inFraction { exponent -= index - start }
            }
            if index < end { self = Self.dropDigits(self, index, end, inFraction: inFraction) }
        }

        /// A pure function, so that the common path's state can stay in registers.
        @inline(never)
        private static func dropDigits(_ digits: Digits, _ start: Int, _ end: Int, inFraction: Bool) -> Digits {
            var digits = digits
            digits.dropDigits(start, end, inFraction: inFraction)
            return digits
        }

        @inline(__always)
        private mutating func dropDigits(_ start: Int, _ end: Int, inFraction: Bool) {
            var index = start
            if !droppedAny {
                let digit = UInt64(base.load(fromByteOffset: index, as: UInt8.self) &- ASCII.zero)
                let (times10, overflow1) = significand.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(digit)
                if !overflow1 && !overflow2 {
                    significand = sum
                    taken += 1
                    index += 1
                    if inFraction { exponent -= 1 }
                }
            }
            guard index < end else { return }
            droppedAny = true
            if !inFraction { exponent += end - index }
            while index < end {
                if base.load(fromByteOffset: index, as: UInt8.self) != ASCII.zero { droppedNonZero = true }
                index += 1
            }
        }

        /// How many of the eight bytes, from the lowest (the first in the text, little-endian), are ASCII digits
        /// before the first that is not: 0...8. A byte at or above 0xFA carries into the next byte's test, which
        /// can only make a later byte look like a non-digit: the first non-digit is still found.
        @inline(__always)
        static func leadingDigits(_ chunk: UInt64) -> Int {
            let tested =
                ((chunk & 0xF0F0_F0F0_F0F0_F0F0) | (((chunk &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4))
                ^ 0x3333_3333_3333_3333
            // A byte of `tested` is zero exactly where the chunk has a digit; set the high bit of every other byte.
            let nonDigits =
                (((tested & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | tested) & 0x8080_8080_8080_8080
            return nonDigits.trailingZeroBitCount &>> 3
        }

        /// ``leadingDigits(_:)`` for bytes known to be digits or `-+.eE` (or zeros shifted in): only digits have 0x10.
        @inline(__always)
        static func leadingTokenDigits(_ chunk: UInt64) -> Int {
            (~chunk & 0x1010_1010_1010_1010).trailingZeroBitCount &>> 3
        }

        /// The value of the first `count` (1...8) digits of the chunk, the first in the lowest byte: up to four
        /// combined in pairs in the low four bytes; more at the top of the word, the bytes below zeroed.
        @inline(__always)
        static func firstDigits(_ chunk: UInt64, _ count: Int) -> UInt64 {
            if count <= 4 {
                var pairs = (chunk &<< UInt64((4 &- count) &* 8)) & 0x0F0F_0F0F
                pairs = pairs &* 10 &+ (pairs &>> 8)
                return (pairs & 0xFF) &* 100 &+ ((pairs &>> 16) & 0xFF)
            }
            if count == 8 { return eightDigits(chunk) }
            let shift = UInt64((8 &- count) &* 8)
            return eightDigits((chunk &<< shift) | (0x3030_3030_3030_3030 &>> UInt64(count &* 8)))
        }

        @inline(__always)
        static func powerOfTen(_ count: Int) -> UInt64 { smallPowersOfTen[count] }

        private static let smallPowersOfTen: [UInt64] = [
            1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
        ]

        /// The value of eight ASCII digits, the first in the lowest byte (little-endian load).
        @inline(__always)
        static func eightDigits(_ chunk: UInt64) -> UInt64 {
            let mask: UInt64 = 0x0000_00FF_0000_00FF
            let mul1: UInt64 = 0x000F_4240_0000_0064  // 100 + (1000000 << 32)
            let mul2: UInt64 = 0x0000_2710_0000_0001  // 1 + (10000 << 32)
            var value = chunk &- 0x3030_3030_3030_3030
            value = (value &* 10) &+ (value >> 8)
            value = (((value & mask) &* mul1) &+ (((value >> 16) & mask) &* mul2)) >> 32
            return value
        }
    }

    // MARK: - Integers

    /// The exact magnitude when the text denotes an integer (`1.0`, `1e3`; not `1.5`) up to `UInt64.max`; else `nil`.
    var integerMagnitude: UInt64? {
        if droppedNonZero { return nil }
        var value = significand
        var scale = exponent
        if value == 0 { return 0 }
        while scale < 0 {
            guard value % 10 == 0 else { return nil }
            value /= 10
            scale += 1
        }
        while scale > 0 {
            let (next, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            value = next
            scale -= 1
        }
        return value
    }

    func integer<T: FixedWidthInteger>(_: T.Type = T.self) -> T? {
        guard let magnitude = integerMagnitude else { return nil }
        return Self.integer(T.self, negative: isNegative, magnitude: magnitude)
    }

    @inline(__always)
    static func integer<T: FixedWidthInteger>(_: T.Type, negative: Bool, magnitude: UInt64) -> T? {
        if !negative { return T(exactly: magnitude) }
        if magnitude == 0 { return 0 }
        guard T.isSigned, magnitude <= UInt64(1) << 63 else { return nil }
        let value = magnitude == UInt64(1) << 63 ? Int64.min : -Int64(magnitude)
        return T(exactly: value)
    }

    /// A token that is a plain integer of at most 19 digits: its value in `T` when it fits; outer `nil` for any other.
    @inline(__always)
    static func plainInteger<T: FixedWidthInteger>(token text: UnsafeRawBufferPointer, as _: T.Type) -> T?? {
        let count = text.count
        guard let base = text.baseAddress, count > 0 else { return .none }
        let negative = base.load(as: UInt8.self) == ASCII.minus
        let start = negative ? 1 : 0
        guard count &- start >= 1 && count &- start <= 19 else { return .none }
        // Digits to the end (JSON has no leading zeros, and a token's text is JSON's): 19 digits can't overflow.
        var index = start
        var magnitude: UInt64 = 0
        guard accumulateDigitRun(base, count, &index, &magnitude, token: true) else { return .none }
        return .some(integer(T.self, negative: negative, magnitude: magnitude))
    }

    // MARK: - Floating point

    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
    private static let maximumExactSignificand: UInt64 = 1 << 53

    /// The correctly rounded `Double`; `nil` beyond its range (`1e400`); too small rounds to zero, as everywhere.
    @inline(__always)
    func double(text: UnsafeRawBufferPointer) -> Double? {
        if droppedNonZero { return Self._slowpath_double(self, text: text) }
        if significand == 0 { return isNegative ? -0.0 : 0.0 }
        if significand <= Self.maximumExactSignificand && exponent >= -22 && exponent <= 22 {
            // Clinger: both operands are exact, so one IEEE operation rounds correctly.
            let value = Double(significand)
            let result =
                exponent >= 0
                ? value * Self.exactPowersOfTen[exponent] : value / Self.exactPowersOfTen[-exponent]
            return isNegative ? -result : result
        }
        guard var result = Self.eiselLemire(significand, exponent) else { return Self._slowpath_strtod(text) }
        guard result.isFinite else { return nil }
        if isNegative { result.negate() }
        return result
    }

    /// A number with more significant digits than the significand holds, some of them not zero.
    @inline(never)
    private static func _slowpath_double(_ number: DecimalText, text: UnsafeRawBufferPointer) -> Double? {
        // The value lies between significand and significand + 1 (× 10^exponent): if both round alike, that's it.
        guard var result = eiselLemire(number.significand, number.exponent), number.significand < UInt64.max,
            let upper = eiselLemire(number.significand + 1, number.exponent), upper == result
        else { return _slowpath_strtod(text) }
        guard result.isFinite else { return nil }
        if number.isNegative { result.negate() }
        return result
    }

    /// Eisel and Lemire's algorithm: `w × 10^q` correctly rounded, from a 128-bit product with a truncated power of
    /// five, or `nil` in the rare case where that product cannot decide the rounding. Infinity means out of range.
    /// (Daniel Lemire, "Number Parsing at a Gigabyte per Second", 2021; the same steps as the fast_float library.)
    @inline(never)
    static func eiselLemire(_ w: UInt64, _ q: Int) -> Double? {
        if w == 0 || q < PowersOfFive.smallestPowerOfTen { return 0 }
        if q > PowersOfFive.largestPowerOfTen { return .infinity }
        return eiselLemireSteps(w, q, normal: false, maybeHalfway: true)
    }

    /// ``eiselLemire(_:_:)`` for a non-zero `w` and `q` within the table, inlined; `normal`: the result is known to be
    /// normal; no `maybeHalfway` when `q` < -4, where no value lies exactly halfway between two doubles.
    @_transparent
    private static func eiselLemireSteps(_ w: UInt64, _ q: Int, normal: Bool, maybeHalfway: Bool) -> Double? {
        let leadingZeros = w.leadingZeroBitCount
        let normalized = w << UInt64(leadingZeros)
        // q is within the table's powers (-342...308): this arithmetic can't overflow.
        let index = 2 &* (q &- PowersOfFive.smallestPowerOfTen)
        assert(index >= 0 && index + 1 < PowersOfFive.wordCount, "q is outside the table")
        let table = PowersOfFive.table
        var (high, low) = normalized.multipliedFullWidth(by: table[index])
        let precisionMask: UInt64 = 0x1FF  // the bits below the 52 + 3 that matter
        if high & precisionMask == precisionMask {
            let (secondHigh, _) = normalized.multipliedFullWidth(by: table[index + 1])
            let (sum, carry) = low.addingReportingOverflow(secondHigh)
            low = sum
            if carry { high &+= 1 }
            if high & precisionMask == precisionMask && low == .max { return nil }
        }
        let upperBit = Int(high >> 63)
        let shift = UInt64(upperBit + 64 - 52 - 3)
        var mantissa = high >> shift
        var power2 = (((152_170 &+ 65_536) &* q) &>> 16) &+ 63 &+ upperBit &- leadingZeros &+ 1023
        if !normal && power2 <= 0 {
            if -power2 + 1 >= 64 { return 0 }
            mantissa >>= UInt64(-power2 + 1)
            mantissa += mantissa & 1
            mantissa >>= 1
            power2 = mantissa < (1 << 52) ? 0 : 1
            return Double(bitPattern: mantissa | (UInt64(power2) << 52))
        }
        // Exactly halfway between two doubles: round to even.
        if maybeHalfway && low <= 1 && q >= -4 && q <= 23 && mantissa & 3 == 1 && (mantissa << shift) == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= (2 << 52) {
            mantissa = 1 << 52
            power2 += 1
        }
        mantissa &= ~(1 << 52)
        if !normal && power2 >= 0x7FF { return .infinity }
        return Double(bitPattern: mantissa | (UInt64(power2) << 52))
    }

    func float(text: UnsafeRawBufferPointer) -> Float? {
        if significand == 0 && !droppedNonZero { return isNegative ? -0.0 : 0.0 }
        if !droppedNonZero && significand <= 1 << 24 && exponent >= -10 && exponent <= 10 {
            let value = Float(significand)
            let power = Float(Self.exactPowersOfTen[abs(exponent)])
            let result = exponent >= 0 ? value * power : value / power
            return isNegative ? -result : result
        }
        return Self._slowpath_strtof(text)
    }

    @inline(never)
    private static func _slowpath_strtod(_ text: UnsafeRawBufferPointer) -> Double? { finite(text, cyajl_strtod_c) }

    @inline(never)
    private static func _slowpath_strtof(_ text: UnsafeRawBufferPointer) -> Float? { finite(text, cyajl_strtof_c) }

    /// `text` read by the C library's `strtod` or `strtof` in the C locale, if finite.
    @inline(__always)
    private static func finite<F: FloatingPoint>(
        _ text: UnsafeRawBufferPointer, _ convert: (UnsafePointer<CChar>, locale_t) -> F
    ) -> F? {
        let value = withCString(text) { convert($0, CLocale.handle) }
        return value.isFinite ? value : nil
    }

    /// Hands `body` a NUL-terminated copy of `text`: on the stack when short, on the heap otherwise.
    private static func withCString<R>(_ text: UnsafeRawBufferPointer, _ body: (UnsafePointer<CChar>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            let base = buffer.baseAddress!
            if let source = text.baseAddress {
                UnsafeMutableRawPointer(base).copyMemory(from: source, byteCount: text.count)
            }
            base[text.count] = 0
            return body(base)
        }
    }
}

/// The C locale, so that `strtod` reads `.` as the decimal point whatever locale the program has set.
enum CLocale {
    nonisolated(unsafe) static let handle: locale_t = {
        guard let locale = cyajl_new_c_locale() else { fatalError("newlocale(\"C\") failed") }
        return locale
    }()
}
