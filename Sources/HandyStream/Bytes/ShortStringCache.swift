/// The short strings a run has made, by their bytes: a value met again (a tag, a status, a language or currency
/// code) is copied from here instead of being made again.
///
/// Making a string of up to 15 bytes inside the standard library
/// (`String(unsafeUninitializedCapacity:initializingUTF8With:)`, which checks the bytes again) costs more than
/// finding it here, the copy's retain included. A string's bytes are folded into two words and a length, which
/// together determine every byte, so a hit is always the string those bytes make. The table is direct-mapped: a new
/// string takes the place of the one whose key lands on the same entry. Strings are values: handing out the same one
/// twice is handing out equal copies.
///
/// Its owner (``DecodingRun``) keeps it in an optional stored property, made at the owner's ``madeBeforeTable``-th
/// short string (a small document makes no table) and freed (``free()``) in its `deinit`. The look-up is not
/// mutating and the property is otherwise only assigned, so that every access to it is an instant one, which the
/// compiler checks for exclusivity once and for all; a mutating call or an `inout` use put a runtime check on every
/// look-up. The table's memory changes through its pointer.
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

    /// The string that `bytes` (1 to ``String/inlineUTF8Capacity`` of them, well-formed UTF-8, as ``String/init(jsonBytes:knownASCII:)``
    /// requires) make: kept from before when the same bytes were made into one, else made and kept.
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
        // (Keys that differ only in their length never share an entry under this hash; the length is compared all
        // the same, so that a change of hash can't make a wrong hit.)
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
