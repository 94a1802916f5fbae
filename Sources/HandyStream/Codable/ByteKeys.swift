/// Coding keys of a type of at most one byte that holds no references: an enum without payloads (whose values are
/// its cases, the commonest coding key) or a one-byte struct. Such a key is read as its byte and made back from it:
/// ``KeyNames`` finds a key's name by its byte, ``CodingPaths`` keeps a path's key as its type and byte.
///
/// Unsafe, and the one place that reads a key's memory: ``byte(of:)`` only for a type that ``fits(_:)``
/// (`unsafeBitCast` checks the sizes), and ``key(_:byte:)`` only with a byte that ``byte(of:)`` read from a value
/// of the same type.
enum ByteKey {
    /// Whether `Key`'s values are told apart by one byte, or by none.
    @inline(__always)
    static func fits<Key>(_: Key.Type) -> Bool { _isPOD(Key.self) && MemoryLayout<Key>.size <= 1 }

    /// The byte of `key`, whose type ``fits(_:)`` (0 for a type of no bytes).
    @inline(__always)
    static func byte<Key>(of key: Key) -> UInt8 {
        MemoryLayout<Key>.size == 1 ? unsafeBitCast(key, to: UInt8.self) : 0
    }

    /// The value of `Key` whose byte is `byte`, which ``byte(of:)`` read from a value of `Key`.
    static func key<Key>(_: Key.Type, byte: UInt8) -> Key {
        MemoryLayout<Key>.size == 0 ? unsafeBitCast((), to: Key.self) : unsafeBitCast(byte, to: Key.self)
    }
}
