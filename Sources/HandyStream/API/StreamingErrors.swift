import Foundation

/// A push decoder used after it has ended: `feed` or `finish` after `finish`. A mistake in the calling code, not in
/// the input.
public struct DecoderMisuseError: Error, CustomStringConvertible, LocalizedError, Sendable {
    /// What was done wrong: `IncrementalDecoder.finish() was called twice: the decoder has ended`.
    public var message: String
    public var description: String { message }
    /// The description, for `localizedDescription`.
    public var errorDescription: String? { message }
}

/// A file that could not be opened or read: its path and the system's reason (`Is a directory`, `No such file or
/// directory`, …).
public struct FileReadError: Error, CustomStringConvertible, LocalizedError, Sendable {
    /// The path that could not be read.
    public var path: String
    /// The `errno` value.
    public var code: Int32
    public var description: String { "cannot read \(path): \(String(cString: strerror(code)))" }
    public var errorDescription: String? { description }

    /// An error for `path` with the system's error number `code`.
    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }
}
