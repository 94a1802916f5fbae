import Testing

@testable import HandyStream

// `RawBuffer` holds the builder's frames, the path filter's levels, the tape and the writers' text. It grows by
// `realloc`, which moves the elements bitwise: every element must survive, and references be released exactly once.

private final class Tracked {
    static let lock = Locked(0)
    let value: Int
    init(_ value: Int) { self.value = value }
    deinit { Tracked.lock.withLock { $0 += 1 } }
}

@Suite struct RawBufferTests {
    @Test func plainValuesSurviveGrowth() {
        var buffer = RawBuffer<Int32>(capacity: 1)
        defer { buffer.deallocate() }
        for value in 0..<1000 { buffer.append(Int32(value)) }
        #expect(buffer.count == 1000)
        #expect(buffer.capacity >= 1000)
        #expect(Array(buffer.elements) == (0..<1000).map(Int32.init))
        #expect(buffer.removeLast() == 999)
        buffer.removeAll(keepingFirst: 10)
        #expect(Array(buffer.elements) == (0..<10).map(Int32.init))
        // A copy reads the same elements.
        buffer[3] = -3
        let view = buffer
        #expect(view[3] == -3)
    }

    @Test func referencesAreMovedAndReleasedOnce() {
        let before = Tracked.lock.withLock { $0 }
        var buffer = RawBuffer<Tracked>(capacity: 2)
        for value in 0..<100 { buffer.append(Tracked(value)) }
        #expect(buffer.elements.map(\.value) == Array(0..<100))
        #expect(Tracked.lock.withLock { $0 } == before)
        _ = buffer.removeLast()
        #expect(Tracked.lock.withLock { $0 } == before + 1)
        buffer.removeAll(keepingFirst: 50)
        #expect(Tracked.lock.withLock { $0 } == before + 50)
        buffer.deallocate()
        #expect(Tracked.lock.withLock { $0 } == before + 100)
    }

    @Test func bytesKeepTheirTextAndTellASCII() {
        var bytes = OutputBytes(capacity: 4)
        defer { bytes.deallocate() }
        let short = Array("héllo".utf8)
        let long = Array(String(repeating: "abcdefgh", count: 40).utf8)
        #expect(!short.withUnsafeBytes { bytes.appendCheckingASCII($0) })
        #expect(long.withUnsafeBytes { bytes.appendCheckingASCII($0) })
        bytes.append(contentsOf: long)
        bytes.append(UInt8(ascii: "!"))
        #expect(bytes.array == short + long + long + [UInt8(ascii: "!")])
    }
}
