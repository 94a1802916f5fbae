/// Coding keys of at most one byte and no references (mostly enums without payloads), read as their byte and made
/// back from it, by ``KeyNames`` and ``CodingPaths``.
///
/// Unsafe, and the one place that reads a key's memory: ``byte(of:)`` only for a type that ``fits(_:)``
/// (`unsafeBitCast` checks the sizes), ``key(_:byte:)`` only with a byte ``byte(of:)`` read from the same type.
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
