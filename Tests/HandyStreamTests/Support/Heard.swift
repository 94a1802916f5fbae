import Foundation
import HandyStream

/// What a diagnostics handler heard, in order (the handler is `@Sendable`, so the lines are kept under a lock).
final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// Decodes `json` into `T` with `ModelDecoder`, leniently, with the diagnostics heard.
func decodeHearing<T>(_: T.Type, _ json: String) throws -> (value: T, heard: [String]) {
    let heard = Heard()
    var options = DecodingOptions()
    options.diagnostics = { heard.append("\($0)") }
    let value = try ModelDecoder(options: options).decode(T.self, from: json)
    return (value, heard.all)
}
