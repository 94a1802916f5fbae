import Foundation

/// Calls `body` until it returns `true`, at most `calls` times, and returns whether it did. Between calls eight
/// blocks of every size up to 2 KB are taken and kept until the end: `malloc` hands the blocks a call freed (up to
/// seven of a size, kept per thread) to the next requests of their size, so the next call's allocations get memory
/// at other addresses. For behaviour seeded by an address, such as the order of a dictionary `JSONEncoder` makes.
/// (Without the blocks, or with one of each size, every call could reuse the same addresses.)
func untilTrueAtFreshAddresses(calls: Int, _ body: () throws -> Bool) rethrows -> Bool {
    var kept: [UnsafeMutableRawPointer] = []
    defer { kept.forEach { free($0) } }
    for _ in 0..<calls {
        if try body() { return true }
        for size in stride(from: 32, through: 2_048, by: 16) {
            for _ in 0..<8 { kept.append(malloc(size)!) }
        }
    }
    return false
}
