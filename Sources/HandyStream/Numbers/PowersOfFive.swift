/// 128-bit approximations of 5^q, normalized so that the top bit is set, for q in -342...308: the table of the
/// Eisel–Lemire algorithm, built as the fast_float library builds it, two words per power, the high word first.
///
/// It is computed from exact integers when the library is loaded (`buildAtLoad` runs among the image's initializers:
/// before `main`, or inside `dlopen`), so that a read on the hot path is a plain load: no lazy initialization, no check.
enum PowersOfFive {
    static let smallestPowerOfTen = -342
    static let largestPowerOfTen = 308
    static let wordCount = 2 * (largestPowerOfTen - smallestPowerOfTen + 1)

    /// `wordCount` words, set once as the library loads and never changed: the power q's words are at `2 * (q + 342)`
    /// and after it.
    @inline(__always)
    static var table: UnsafePointer<UInt64> { UnsafePointer(builtTable.unsafelyUnwrapped) }

    fileprivate static func build() -> UnsafeMutablePointer<UInt64> {
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: wordCount)
        func store(_ value: BigNumber, power q: Int) {
            let index = 2 * (q - smallestPowerOfTen)
            let top = value.bitLength
            words[index] = value.word(from: top - 64)
            words[index + 1] = value.word(from: top - 128)
        }
        var power = BigNumber(1)
        for q in 0...largestPowerOfTen {
            store(power, power: q)
            power.multiply(by: 5)
        }
        // 5^-n is ⌊2^b / 5^n⌋ + 1 cut to its top 128 bits, with b = z + 127 up to n = 27 and 2z + 128 beyond (z:
        // 5^n's bit length); ⌊2^b / 5^n⌋ is ⌊2^1728 / 5^n⌋ shifted right, as the floors of divisions compose. 1728 is
        // the largest b (2 × 795 + 128 = 1718, 795 bits being 5^342's length) rounded up to whole words; 2^1728 is word 27.
        let numerator = 1728
        var reciprocal = BigNumber(1, shiftedLeft: numerator)
        power = BigNumber(1)
        for n in 1...(-smallestPowerOfTen) {
            reciprocal.divide(by: 5)
            power.multiply(by: 5)
            let z = power.bitLength
            var value = reciprocal.shiftedRight(by: numerator - (n <= 27 ? z + 127 : 2 * z + 128))
            value.addOne()
            store(value, power: -n)
        }
        return words
    }
}

/// Written only by `buildAtLoad`, as the library loads; `nil` is a constant, so the optimizer lays the variable out
/// statically and a read needs no lazy initialization.
nonisolated(unsafe) private var builtTable: UnsafeMutablePointer<UInt64>? = nil

#if objectFormat(MachO)
@used @section("__DATA,__mod_init_func")
private let buildAtLoad: @convention(c) () -> Void = { builtTable = PowersOfFive.build() }
#else
@used @section(".init_array")
private let buildAtLoad: @convention(c) () -> Void = { builtTable = PowersOfFive.build() }
#endif

/// A non-negative integer below 2^1792 in its `count` significant 64-bit words, least significant first, kept on the
/// stack: just what the table needs.
private struct BigNumber {
    var words = InlineArray<28, UInt64>(repeating: 0)
    var count = 1

    /// `value << shift`, for a `value` whose bits stay within the word they start in (1, here).
    init(_ value: UInt64, shiftedLeft shift: Int = 0) {
        count = shift / 64 + 1
        words[count - 1] = value << UInt64(shift % 64)
    }

    var bitLength: Int { 64 * count - words[count - 1].leadingZeroBitCount }

    /// The 64 bits from bit `start` up (`start` may be negative: the bits below bit 0 are zeros).
    func word(from start: Int) -> UInt64 {
        func at(_ index: Int) -> UInt64 { index >= 0 && index < count ? words[index] : 0 }
        let index = start >> 6
        let shift = UInt64(start & 63)
        return shift == 0 ? at(index) : at(index) >> shift | at(index + 1) << (64 - shift)
    }

    func shiftedRight(by shift: Int) -> BigNumber {
        precondition(shift >= 0, "BigNumber: a negative shift")
        var result = BigNumber(0)
        result.count = count - shift / 64
        for index in 0..<result.count { result.words[index] = word(from: shift + 64 * index) }
        if result.words[result.count - 1] == 0 && result.count > 1 { result.count -= 1 }
        return result
    }

    mutating func multiply(by factor: UInt64) {
        var carry: UInt64 = 0
        for index in 0..<count {
            let (high, low) = words[index].multipliedFullWidth(by: factor)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            words[index] = sum
            carry = high + (overflow ? 1 : 0)
        }
        if carry != 0 {
            words[count] = carry
            count += 1
        }
    }

    mutating func divide(by divisor: UInt64) {
        var remainder: UInt64 = 0
        for index in (0..<count).reversed() {
            (words[index], remainder) = divisor.dividingFullWidth((remainder, words[index]))
        }
        if words[count - 1] == 0 && count > 1 { count -= 1 }
    }

    mutating func addOne() {
        for index in 0..<count {
            words[index] &+= 1
            if words[index] != 0 { return }
        }
        words[count] = 1
        count += 1
    }
}
