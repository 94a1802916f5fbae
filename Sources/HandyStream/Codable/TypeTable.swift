/// Types to values by open addressing, at most half full, over Fibonacci hashing of the type's address (so that
/// metadata at regular distances spread). Types are only added.
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

    /// Replaces the value kept for `key`, if any.
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
