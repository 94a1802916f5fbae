import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file or descriptor in chunks through one reused buffer, for the file entry points and the command-line
/// tool. Each chunk lives only during the call; a read error throws a ``JSONDecodingError`` of kind `unreadable`,
/// never taken for the end.
package enum ChunkReader {
    /// What the file entry points read at a time.
    static let chunkSize = 1 << 16

    /// Calls `body` with each chunk until it returns `false` or the input ends.
    package static func read(
        file: String, chunkSize: Int = 1 << 16, _ body: (UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        let descriptor = open(file, O_RDONLY)
        guard descriptor >= 0 else { throw JSONDecodingError.unreadable(file, code: errno) }
        defer { close(descriptor) }
        try read(descriptor: descriptor, name: file, chunkSize: chunkSize, body)
    }

    /// The same for an open descriptor; `name` is what errors call it.
    package static func read(
        descriptor: Int32, name: String = "<input>", chunkSize: Int = 1 << 16,
        _ body: (UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, chunkSize), alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try readOnce(descriptor: descriptor, name: name, into: buffer)
            if count == 0 { return }
            guard try body(UnsafeRawBufferPointer(rebasing: buffer[..<count])) else { return }
        }
    }

    /// One `read` into `buffer`, retried when a signal interrupts it: the bytes read, 0 at the end.
    static func readOnce(descriptor: Int32, name: String, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw JSONDecodingError.unreadable(name, code: errno) }
        }
    }
}

/// The system's `read`, by a name that the `read` methods here don't hide.
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
