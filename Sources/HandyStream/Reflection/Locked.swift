import Foundation

/// A value behind a pthread mutex (`NSLock`). Preferred here to `Synchronization.Mutex`, whose futex-based waiting
/// ThreadSanitizer does not understand: with it, every correctly locked access would be reported as a race.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
