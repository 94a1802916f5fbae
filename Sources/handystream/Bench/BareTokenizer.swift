import CYajl

/// yajl's tokenizer with callbacks that do nothing: the floor under any decoder built on it.
enum BareTokenizer {
    /// Parses `bytes` completely; returns whether they were well formed.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let handle = yajl_alloc(callbacks, nil, nil) else { return false }
        defer { yajl_free(handle) }
        guard yajl_parse(handle, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
            == yajl_status_ok
        else { return false }
        return yajl_complete_parse(handle) == yajl_status_ok
    }

    /// The same events a decoder asks for (numbers as raw text), each answered by returning "go on".
    nonisolated(unsafe) private static let callbacks: UnsafePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(to: yajl_callbacks(
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
