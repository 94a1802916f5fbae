internal import CYajl
#if canImport(Glibc)
import Glibc
#endif

/// `Codable` values nest by recursion (each level is a call of its `init(from:)` or `encode(to:)`, user code that
/// can't be made iterative), so on a small thread stack a deep value could overflow it. Before each nested value the
/// coders compare the stack pointer with this thread's limit and throw instead.
enum StackGuard {
    /// What is left below the stack pointer when a nested value is refused: room for one more level of user code,
    /// the error path, and unoptimized builds' larger frames.
    static let margin: UInt = 48 << 10

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The lowest address nested values may reach on this thread (its stack's low end plus ``margin``), worked out
    /// once per thread; 0 when the thread's stack can't be known.
    static var limit: UInt {
        if let known = pthread_getspecific(key) { return UInt(bitPattern: known) }
        var attributes = pthread_attr_t()
        var low: UInt = 1
        if pthread_getattr_np(pthread_self(), &attributes) == 0 {
            var base: UnsafeMutableRawPointer?
            var size = 0
            if pthread_attr_getstack(&attributes, &base, &size) == 0, let base {
                low = UInt(bitPattern: base) + margin
            }
            pthread_attr_destroy(&attributes)
        }
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: low))
        return low
    }

    /// Whether the stack has room for another nested value. (The frame address, not a local's: under
    /// AddressSanitizer locals may live on a separate fake stack.)
    @inline(__always)
    static func hasRoom(above limit: UInt) -> Bool {
        UInt(cyajl_frame_address()) > limit
    }
}

/// A `Codable` value nested too deeply for the thread's stack. Not a `DecodingError`, so that lenient mode's fallbacks
/// never pass over it: the decode fails as a whole, with kind `tooDeep`.
struct StackExhausted: Error, CustomStringConvertible {
    var codingPath: [any CodingKey]
    var call: String

    var description: String {
        "the value nests too deeply for this thread's stack (each level is a call of \(call)); decode it on a thread "
            + "with a larger stack"
    }
}
