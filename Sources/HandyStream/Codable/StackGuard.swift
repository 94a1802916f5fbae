internal import CYajl
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Codable` values nest by recursion through user code, so a deep value could overflow a small thread stack. Before
/// each nested value the coders ask a ``StackBudget`` for room, and throw instead.
enum StackGuard {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Worked out once per thread (`pthread_getattr_np` is not cheap); 0 when unknown, and then nothing is refused.
    static var lowEnd: UInt {
        if let known = pthread_getspecific(key) { return UInt(bitPattern: known) &- 1 }
        var low: UInt = 0
        #if os(Linux)
        var attributes = pthread_attr_t()
        if pthread_getattr_np(pthread_self(), &attributes) == 0 {
            var base: UnsafeMutableRawPointer?
            var size = 0
            if pthread_attr_getstack(&attributes, &base, &size) == 0, let base { low = UInt(bitPattern: base) }
            pthread_attr_destroy(&attributes)
        }
        #elseif canImport(Darwin)
        let thread = pthread_self()
        low = UInt(bitPattern: pthread_get_stackaddr_np(thread)) &- UInt(pthread_get_stacksize_np(thread))
        #endif
        // Stored plus one, so that an unknown low end (0) is told apart from no entry.
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: low &+ 1))
        return low
    }

    /// Not a local's address: under AddressSanitizer locals may live on a separate fake stack.
    @inline(__always)
    static var frameAddress: UInt { UInt(cyajl_frame_address()) }

    /// `nil` when the low end is unknown.
    @inline(__always)
    static var room: UInt? {
        let low = lowEnd
        guard low != 0 else { return nil }
        let here = frameAddress
        return here > low ? here - low : 0
    }

    /// Runs `body` on a thread with a `stackSize`-byte stack and waits; returns `false`, running nothing, when no
    /// thread can be made (running it here could overflow this stack: see ``OneTimeSetUp``).
    @discardableResult
    static func onLargeStack(stackSize: Int, _ body: @escaping () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let job = Unmanaged.passRetained(StackJob(body))
        #if canImport(Darwin)
        var thread: pthread_t?
        let created = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<StackJob>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }, job.toOpaque())
        guard created == 0, let thread else {
            job.release()
            return false
        }
        #else
        var thread = pthread_t()
        let created = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<StackJob>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, job.toOpaque())
        guard created == 0 else {
            job.release()
            return false
        }
        #endif
        pthread_join(thread, nil)
        return true
    }
}

private final class StackJob {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// A nested value is refused when the stack left is less than two levels' worth (averaged over the levels so far)
/// plus ``reserve``, so that the check holds whatever a level costs, in debug or optimized builds.
struct StackBudget {
    /// Room kept for the error path and for the first levels, before any was measured.
    static let reserve: UInt = 16 << 10

    /// 0: unknown, nothing is refused.
    let low: UInt
    /// The frame address where the root value started.
    let top: UInt

    init() {
        low = StackGuard.lowEnd
        top = StackGuard.frameAddress
    }

    /// `.max` when the low end is unknown.
    var room: UInt { low == 0 ? .max : top > low ? top - low : 0 }

    /// Nothing is refused (a decoder that was never started).
    init(unlimited: Void) {
        low = 0
        top = 0
    }

    /// For the root value: only enough not to crash, as a larger margin would refuse flat values on small stacks.
    static let rootReserve: UInt = 8 << 10

    /// Whether one more level fits, `nesting` levels being open.
    @inline(__always)
    func hasRoom(nesting: Int) -> Bool {
        guard low != 0 else { return true }
        let here = StackGuard.frameAddress
        guard here > low else { return false }
        guard nesting > 0 else { return here - low > Self.rootReserve }
        let used = top > here ? top - here : 0
        return here - low > used / UInt(nesting) * 2 + Self.reserve
    }
}

/// Not a `DecodingError`, so that lenient mode never rescues it: the decode fails as a whole, with kind `tooDeep`.
struct StackExhausted: Error, CustomStringConvertible {
    var codingPath: [any CodingKey]
    var call: String

    var description: String {
        "the value nests too deeply for this thread's stack (each level is a call of \(call)); decode it on a thread "
            + "with a larger stack"
    }
}
