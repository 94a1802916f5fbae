import Foundation

/// What a diagnostics handler heard, in order (the handler is `@Sendable`, so the lines are kept under a lock).
final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
