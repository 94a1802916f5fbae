import ArgumentParser
import Foundation
import HandyStream

let pathHelp = """
    A path names values in the document: keys separated by dots (data.items), array indices in brackets \
    (data.items[3].name), [*] for every element of an array and * for every member of an object, anywhere and \
    any number of times (statuses[*].user, data[*].items[*], rates.*). A backslash makes the next character \
    literal (a\\.b is the one key "a.b", \\* the key "*"). The empty path is the whole document. Every match is \
    printed on a line of its own, in document order; on JSON Lines (or concatenated documents) the path applies to \
    each line in turn. Like jq's .a.b[] and .rates[]. A path that begins with $ is an RFC 9535 \
    JSONPath query ($.data.items[*].name, $.items[?@.price < 10].id, $..author, $.items[-3:]), matches in the \
    RFC's order; a filter holds one candidate at a time, [-N:] the last N elements.
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

    @Argument(help: "The JSON file to read (standard input when omitted, or for -).")
    var file: String?

    @Flag(help: "Never show a progress bar.")
    var quiet = false

    @Flag(help: "Write each match's normalized path (RFC 9535, $['a'][0]) and a tab before it.")
    var paths = false

    @Option(
        help: ArgumentHelp(
            "Threads that decode JSON Lines, or the elements of one large array the path goes through "
                + "(data.items[*], data.items[*].id); the output is one thread's.",
            discussion: "All cores by default; other input is read on one thread."))
    var jobs = defaultJobs

    /// A path that is not a path is a usage error (exit status 64), told before any input is read.
    func validate() throws {
        try checkJobs(jobs)
        do {
            _ = try ModelDecoder().values(of: JSONText.self, at: path)
        } catch let error as JSONDecodingError where error.kind == .invalidPath {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let file = inputFile(self.file)
        let output = OutputBuffer()
        let progress = Progress(file: file, enabled: !quiet)
        let name = file ?? standardInputName
        do {
            if jobs > 1 {
                try ModelDecoder().forEachValue(
                    of: JSONText.self, at: path, inFileAt: file ?? "/dev/stdin", jobs: jobs, paths: paths,
                    spanRead: progress.advance(by:)
                ) { element, path in
                    try output.line(path.map { Array(($0 + "\t").utf8) + element.bytes } ?? element.bytes)
                }
                try output.flush()
                return progress.done()
            }
            // Every match of the path (one for a path without wildcards), in each top-level value: JSON Lines give
            // their results line after line.
            let decoder = try ModelDecoder().values(of: JSONText.self, at: path)
            if paths { decoder.recordPaths() }
            func write(_ elements: [JSONText]) throws {
                guard paths else {
                    for element in elements { try output.line(element.bytes) }
                    return
                }
                for (path, element) in zip(decoder.takePaths(), elements) {
                    try output.line(Array((path + "\t").utf8) + element.bytes)
                }
            }
            try readInput(file) { chunk in
                try write(try decoder.feed(chunk))
                progress.advance(by: chunk.count)
                return true
            }
            try write(try decoder.finish())
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
        abstract: "Check that each file is one well-formed JSON document (or JSON Lines, with --lines).",
        discussion: """
            Prints FILE: ok on standard output for each good file, and FILE:line:column: message (or FILE: cannot \
            read: reason) on standard error for each other one; the exit status is 1 when any file is invalid or \
            cannot be read.
            """)

    @Argument(help: "The files to check (standard input when none is given, or for -).")
    var files: [String] = []

    @Flag(help: "Check JSON Lines: any number of values, each on its own line (or concatenated values).")
    var lines = false

    @Option(
        help: ArgumentHelp(
            "Threads that check JSON Lines (--lines), in spans of whole lines, or the elements of a document's large "
                + "array; the first error is one thread's.",
            discussion: "All cores by default."))
    var jobs = defaultJobs

    func validate() throws { try checkJobs(jobs) }

    func run() throws {
        var failed = false
        for argument in files.isEmpty ? ["-"] : files {
            let file = inputFile(argument)
            let name = file ?? standardInputName
            do {
                // Standard input by its name: read as a file is, in chunks, whether a pipe, a terminal or a file.
                if lines {
                    try ModelDecoder().forEachValue(
                        of: Validation.self, at: "", inFileAt: file ?? "/dev/stdin", jobs: jobs, { _, _ in })
                } else {
                    try ModelDecoder().validate(fileAt: file ?? "/dev/stdin", jobs: jobs)
                }
                print("\(name): ok")
            } catch {
                failed = true
                _ = ExitCode.report(error, file: name)
            }
        }
        if failed { throw ExitCode.failure }
    }
}

/// Threads for `--jobs`: every core the process may use.
let defaultJobs = ProcessInfo.processInfo.activeProcessorCount

/// `--jobs` must name at least one thread (a usage error otherwise).
func checkJobs(_ jobs: Int) throws {
    guard (1...1024).contains(jobs) else { throw ValidationError("--jobs must be 1 to 1024; \(jobs) is not.") }
}

/// What messages call standard input.
let standardInputName = "<stdin>"

/// The file an input argument names: `nil` for standard input (no argument, or `-`).
func inputFile(_ argument: String?) -> String? { argument == "-" ? nil : argument }

/// Reads `file`, or standard input when it is `nil`, in chunks; a file that cannot be opened or read throws a
/// ``JSONDecodingError`` of kind `unreadable`, whichever command reads it.
func readInput(_ file: String?, _ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
    if let file {
        try ChunkReader.read(file: file, body)
    } else {
        try ChunkReader.read(descriptor: STDIN_FILENO, name: standardInputName, body)
    }
}

extension ExitCode {
    /// The error's message on standard error (after what standard output was given so far), and exit status 1.
    static func report(_ error: Error, file: String) -> ExitCode {
        fflush(nil)
        FileHandle.standardError.write(Data((message(error, file: file) + "\n").utf8))
        return .failure
    }

    /// `FILE:line:column: message at path` for bad JSON, `FILE: cannot read: reason` for a file that cannot be
    /// opened or read (one form, whatever the command), `FILE: description` otherwise.
    static func message(_ error: Error, file: String) -> String {
        if let error = error as? JSONDecodingError {
            // A file that cannot be read says `FILE: cannot read: reason` itself.
            if error.kind == .unreadable { return error.message }
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
