/// The short strings a run has made, by their bytes: a value met again (a tag, a currency code) is copied from here,
/// which costs less than making it. The bytes fold into two words and a length that determine every byte, so a hit is
/// always right; a new string replaces the one on its entry. The owner (``DecodingRun``) makes it at its
/// ``madeBeforeTable``-th short string and frees it (``free()``); the look-up is not mutating and the owner's property
/// only assigned, so exclusivity is checked statically.
struct ShortStringCache {
    /// Entries in the table: 2^(64 - `indexShift`).
    static let capacity = 256
    private static let indexShift: UInt64 = 56
    /// How many short strings an owner makes before it makes the table: a small document makes none.
    static let madeBeforeTable = 64

    private struct Entry {
        var first: UInt64
        var last: UInt64
        /// The string's length in bytes; 0 for an entry never filled (no empty string is kept).
        var count: Int
        var value: String
    }

    /// The table, `capacity` entries, every one initialized (to an empty string first).
    private let table: UnsafeMutablePointer<Entry>

    init() {
        table = .allocate(capacity: Self.capacity)
        table.initialize(repeating: Entry(first: 0, last: 0, count: 0, value: ""), count: Self.capacity)
    }

    /// Frees the table and its strings: the owner's last use of it (copies share the table).
    func free() {
        table.deinitialize(count: Self.capacity)
        table.deallocate()
    }

    /// The string `bytes` make (as ``String/init(jsonBytes:knownASCII:)`` requires them): kept, or made and kept.
    @inline(__always)
    func string(_ bytes: UnsafeRawBufferPointer) -> String {
        let count = bytes.count
        assert(count > 0 && count <= String.inlineUTF8Capacity, "ShortStringCache: \(count) bytes")
        // With the count, the two words determine every byte.
        let (first, last) = ShortBytes.ends(bytes.baseAddress.unsafelyUnwrapped, count: count)
        let mixed = ((first ^ (last &<< 1)) &+ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
        let index = Int(truncatingIfNeeded: mixed &>> Self.indexShift)
        assert(index >= 0 && index < Self.capacity, "ShortStringCache: entry \(index)")
        let entry = table + index
        // Keys of different lengths never share an entry, but the length is compared anyway, in case the hash changes.
        if entry.pointee.count == count, entry.pointee.first == first, entry.pointee.last == last {
            return entry.pointee.value
        }
        let value = String(jsonBytes: bytes)
        entry.pointee.value = value
        entry.pointee.first = first
        entry.pointee.last = last
        entry.pointee.count = count
        return value
    }
}
