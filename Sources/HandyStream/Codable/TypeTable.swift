/// A table from types to values, by open addressing over a hash of the type's address (Fibonacci hashing: the
/// address times 2^64 divided by the golden ratio, its top bits, so that metadata at regular distances spread),
/// grown to keep at most half its slots used: a type is found in a probe or two, with no hashing of its own. Types
/// are only added.
struct TypeTable<Value> {
    private var keys: [ObjectIdentifier?]
    private var values: [Value?]
    private var count = 0
    /// `64 - log2(slot count)`.
    private var shift: UInt64

    init() {
        keys = Array(repeating: nil, count: 64)
        values = Array(repeating: nil, count: 64)
        shift = 58
    }

    @inline(__always)
    private func home(_ key: ObjectIdentifier) -> Int {
        Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The value kept for `key`.
    @inline(__always)
    func value(for key: ObjectIdentifier) -> Value? {
        let mask = keys.count &- 1
        var slot = home(key)
        while let kept = keys[slot] {
            if kept == key { return values[slot] }
            slot = (slot &+ 1) & mask
        }
        return nil
    }

    /// Keeps `value` for `key` (replacing the value kept for it, if any).
    mutating func insert(_ value: Value, for key: ObjectIdentifier) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count &- 1
        var slot = home(key)
        while let kept = keys[slot], kept != key { slot = (slot &+ 1) & mask }
        if keys[slot] == nil { count += 1 }
        keys[slot] = key
        values[slot] = value
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = Array(repeating: nil, count: oldKeys.count * 2)
        values = Array(repeating: nil, count: oldKeys.count * 2)
        shift -= 1
        count = 0
        for (key, value) in zip(oldKeys, oldValues) {
            if let key, let value { insert(value, for: key) }
        }
    }
}
