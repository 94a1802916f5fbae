import Foundation
@testable import HandyStream
import Testing

/// The one duplicate-key finder that the decoder's tape and the encoder's tree share.
@Suite struct DuplicateKeysTests {
    /// Adds `keys` in order as one object; the index of the first key found equal to an earlier one.
    private static func firstDuplicate(_ keys: [[UInt8]], in finder: inout DuplicateKeys) -> Int? {
        let bytes = keys.flatMap { $0 }
        var ranges: [Range<Int>] = []
        for key in keys { ranges.append((ranges.last?.upperBound ?? 0)..<(ranges.last?.upperBound ?? 0) + key.count) }
        return bytes.withUnsafeBytes { all -> Int? in
            finder.begin(count: keys.count)
            for (id, range) in ranges.enumerated() {
                let key = UnsafeRawBufferPointer(rebasing: all[range])
                if finder.insert(
                    key, id: UInt32(id), bytesOf: { UnsafeRawBufferPointer(rebasing: all[ranges[Int($0)]]) })
                {
                    return id
                }
            }
            return nil
        }
    }

    /// Keys of every length class (the fingerprint reads 0–3 bytes, 4–7, 8 or more), many per object (the table
    /// grows), object after object in the same scratch memory (no clearing between them): a duplicate is found
    /// exactly when there is one, at the repeated key.
    @Test func findsExactlyTheDuplicates() {
        var finder = DuplicateKeys()
        defer { finder.deallocate() }
        for count in [1, 2, 3, 9, 17, 100, 1000] {
            let keys = (0..<count).map { index in
                Array("k\(index)".utf8) + Array(repeating: UInt8(ascii: "x"), count: index % 20)
            }
            for duplicate in [nil, 0, count / 2, count - 1] as [Int?] {
                var list = keys
                if let duplicate { list.append(keys[duplicate]) }
                let found = Self.firstDuplicate(list, in: &finder)
                #expect(
                    found == duplicate.map { _ in count },
                    "\(count) keys, a second copy of \(String(describing: duplicate))")
            }
        }
        #expect(Self.firstDuplicate([[], []], in: &finder) == 1, "two empty keys")
    }

    /// Keys whose fingerprints agree (same length, same first and last eight bytes) but which differ in the middle
    /// are not duplicates.
    @Test func equalFingerprintsAreComparedWhole() {
        var finder = DuplicateKeys()
        defer { finder.deallocate() }
        let keys = ["abcdefgh-1-ijklmnop", "abcdefgh-2-ijklmnop", "abcdefgh-1-ijklmnop"].map { Array($0.utf8) }
        #expect(Self.firstDuplicate(keys, in: &finder) == 2)
        #expect(Self.firstDuplicate(Array(keys.prefix(2)), in: &finder) == nil)
    }
}
