import ArgumentParser
import Foundation

/// Writes a large document shaped like an API response, for measurements: `{"data": {"items": [ … ]}, …}` with
/// elements of about 1 KB.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a large API-shaped document of ~1 KB elements under data.items (for benchmarks).")

    @Option(help: "The size to write, in MB (10^6 bytes).")
    var megabytes = 100

    @Flag(help: "Write the elements as JSON Lines, one per line, instead of one document.")
    var lines = false

    @Argument(help: "Where to write it.")
    var file: String

    func run() throws {
        // A file that cannot be made or written is an I/O error (exit status 1), not a usage error.
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw ExitCode.report(CreateError(code: errno), file: file) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        var written = 0
        var index = 0
        do {
            if !lines { try handle.write(contentsOf: Data(#"{"status": "ok", "data": {"total": -1, "items": ["#.utf8)) }
            let target = megabytes * 1_000_000
            var batch: [UInt8] = []
            while written < target {
                batch.removeAll(keepingCapacity: true)
                for _ in 0..<256 {
                    if lines {
                        batch += Self.element(index) + [UInt8(ascii: "\n")]
                    } else {
                        batch += Array((index == 0 ? "" : ",").utf8) + Self.element(index)
                    }
                    index += 1
                }
                try handle.write(contentsOf: batch)
                written += batch.count
            }
            if !lines { try handle.write(contentsOf: Data(#"]}, "next": null}"#.utf8)) }
        } catch {
            throw ExitCode.report(error, file: file)
        }
        print("\(file): \(index) items, \(written) bytes")
    }

    /// The file could not be created.
    struct CreateError: Error, CustomStringConvertible, LocalizedError {
        var code: Int32
        var description: String { "cannot create: \(String(cString: strerror(code)))" }
        var errorDescription: String? { description }
    }

    static func element(_ index: Int) -> [UInt8] {
        let tags = (0..<8).map { "\"tag-\(($0 * 7 + index) % 97)\"" }.joined(separator: ",")
        let text = String(repeating: "lorem ipsum dolor sit amet ", count: 20)
        return Array(
            """
            {"id":\(index),"name":"item \(index)","price":\(Double(index % 10_000) / 100 + 0.99),\
            "active":\(index % 3 != 0),"tags":[\(tags)],"owner":{"id":\(index % 5000),"name":"owner \(index % 5000)",\
            "email":"owner\(index % 5000)@example.com"},"description":"\(text)","ratings":[4.5,3.25,5,1e2,-0.5]}
            """.utf8)
    }
}
