import CYajl
import Glibc

/// yajl's tokenizer with callbacks that do nothing: the floor under any decoder built on it.
enum BareTokenizer {
    /// Parses `bytes` completely; returns whether they were well formed.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let handle = yajl_alloc(callbacks, nil, nil) else { return false }
        defer { yajl_free(handle) }
        guard
            yajl_parse(handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
                == yajl_status_ok
        else { return false }
        return yajl_complete_parse(handle) == yajl_status_ok
    }

    /// Parses a file in 64 KiB chunks (`multipleValues`: JSON Lines); returns the bytes read.
    static func parseFile(_ file: String, multipleValues: Bool = false) throws -> Int {
        guard let handle = yajl_alloc(callbacks, nil, nil) else { return 0 }
        defer { yajl_free(handle) }
        if multipleValues { _ = cyajl_set_allow_multiple_values(handle, 1) }
        let descriptor = open(file, O_RDONLY)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count <= 0 { break }
            total += count
            guard yajl_parse(handle, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count) == yajl_status_ok
            else { return 0 }
        }
        return yajl_complete_parse(handle) == yajl_status_ok ? total : 0
    }

    /// The same events a decoder asks for (numbers as raw text), each answered by returning "go on".
    nonisolated(unsafe) private static let callbacks: UnsafePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(
            to: yajl_callbacks(
                yajl_null: { _ in 1 },
                yajl_boolean: { _, _ in 1 },
                yajl_integer: nil,
                yajl_double: nil,
                yajl_number: { _, _, _ in 1 },
                yajl_string: { _, _, _ in 1 },
                yajl_start_map: { _ in 1 },
                yajl_map_key: { _, _, _ in 1 },
                yajl_end_map: { _ in 1 },
                yajl_start_array: { _ in 1 },
                yajl_end_array: { _ in 1 }
            ))
        return UnsafePointer(table)
    }()
}
