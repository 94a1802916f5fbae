import ArgumentParser
import Foundation
import HandyStream

let pathHelp = """
    A path names values in the document: keys separated by dots (data.items), array indices in brackets \
    (data.items[3].name), [*] for every element of an array and * for every member of an object, anywhere and \
    any number of times (statuses[*].user, data[*].items[*], rates.*). A backslash makes the next character \
    literal (a\\.b is the one key "a.b", \\* the key "*"). The empty path is the whole document. Every match is \
    printed on a line of its own, in document order; on JSON Lines (or concatenated documents) the path applies to \
    each line in turn. Like jq's .a.b[] and .rates[], without filters.
    """

/// Writes every value a path matches as compact JSON, one per line.
struct Extract: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the values a path matches as compact JSON, one per line, streaming.",
        discussion: pathHelp + """


            Examples:
              handystream extract data.items[*] export.json | wc -l
              curl -s https://api.example.com/items | handystream extract 'data.items[*]'
            """)

    @Argument(help: "The path of the values to extract.")
    var path: String

    @Argument(help: "The JSON file to read (standard input when omitted).")
    var file: String?

    @Flag(help: "Never show a progress bar.")
    var quiet = false

    func run() throws {
        let output = OutputBuffer()
        let progress = Progress(file: file, enabled: !quiet)
        let name = file ?? "<stdin>"
        do {
            let handle = try file.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? .standardInput
            defer { if file != nil { try? handle.close() } }
            // Every match of the path (one for a path without wildcards), in each top-level value: JSON Lines give
            // their results line after line.
            let decoder = try ModelDecoder().values(of: JSONText.self, at: path)
            try ChunkReader.read(descriptor: handle.fileDescriptor, name: name) { chunk in
                for element in try decoder.feed(chunk) { try output.line(element.bytes) }
                progress.advance(by: chunk.count)
                return true
            }
            for element in try decoder.finish() { try output.line(element.bytes) }
            try output.flush()
            progress.done()
        } catch let error as OutputError {
            progress.done()
            throw ExitCode.report(error, file: "<output>")
        } catch {
            progress.done()
            try? output.flush()
            throw ExitCode.report(error, file: name)
        }
    }
}

/// Checks that files are well-formed JSON.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that each file is one well-formed JSON document.",
        discussion: "Prints FILE: ok, or FILE:line:column: message; the exit status is 1 when any file is invalid.")

    @Argument(help: "The files to check.")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do {
                try ModelDecoder().validate(fileAt: file)
                print("\(file): ok")
            } catch {
                failed = true
                print(ExitCode.message(error, file: file))
            }
        }
        if failed { throw ExitCode.failure }
    }
}

extension ExitCode {
    /// `FILE:line:column: message` on standard error, and exit status 1.
    static func report(_ error: Error, file: String) -> ExitCode {
        FileHandle.standardError.write(Data((message(error, file: file) + "\n").utf8))
        return .failure
    }

    static func message(_ error: Error, file: String) -> String {
        if let error = error as? JSONDecodingError {
            return error.line > 0
                ? "\(file):\(error.line):\(error.column): \(error.message) at \(error.path)"
                : "\(file): \(error.message) at \(error.path)"
        }
        return "\(file): \(error.localizedDescription)"
    }
}

/// Standard output could not take what was written (a full disk, a closed pipe).
struct OutputError: Error, CustomStringConvertible, LocalizedError {
    var code: Int32
    var description: String { "cannot write the output: \(String(cString: strerror(code)))" }
    var errorDescription: String? { description }
}

/// Buffers standard output, so that one line per element costs no system call of its own.
final class OutputBuffer {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1 << 16) }

    func line(_ text: [UInt8]) throws {
        bytes.append(contentsOf: text)
        bytes.append(UInt8(ascii: "\n"))
        if bytes.count >= 1 << 16 { try flush() }
    }

    /// Writes what is buffered; throws when standard output refuses it.
    func flush() throws {
        defer { bytes.removeAll(keepingCapacity: true) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw OutputError(code: written < 0 ? errno : EIO) }
            offset += written
        }
    }
}

/// A progress bar on standard error, when it is a terminal and the input's size is known.
final class Progress {
    private let total: Int
    private var read = 0
    private var shown = -1
    private let enabled: Bool

    init(file: String?, enabled: Bool) {
        let size = file.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int } ?? 0
        total = size
        self.enabled = enabled && size > 0 && isatty(2) != 0
    }

    func advance(by count: Int) {
        guard enabled else { return }
        read += count
        // The file may grow while it is read: never past 100%.
        let percent = min(read * 100 / total, 100)
        guard percent != shown else { return }
        shown = percent
        let filled = min(max(percent / 4, 0), 25)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 25 - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(percent)%".utf8))
    }

    func done() {
        if enabled && shown >= 0 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
