import CYajl

/// The batching prototype: two ways to get yajl's events into Swift, measured by instructions against each other and
/// against the bare tokenizer (`handystream bench --only events-callbacks` / `events-batched`, under callgrind).
///
/// - Callbacks, as the library's tokenizer delivers them: yajl calls a thunk per event, which recovers its receiver
///   from yajl's context pointer and calls the sink through its class's table (the builder, the path filter).
/// - Batched: yajl's callbacks only append a compact token (kind, length, where its bytes are, the stream offset
///   after it, which a later error needs, since the consumer runs after yajl has moved on) to a buffer; one Swift
///   loop per buffer-full hands each token to the consumer, whose handlers it can inline. Bytes that yajl hands out
///   of its own buffers (strings with escapes, tokens split across chunks) must be copied, since yajl reuses them.
///
/// Both consumers do the same trivial work (count events and bytes), so the difference is the cost of delivery alone:
/// what batching could save a consumer, before any of the consumer's own work.
enum EventDelivery {
    /// The work done per event: counts and sums, so that nothing can be optimized away.
    struct Tally {
        var events = 0
        var bytes = 0
    }

    // MARK: - Callbacks

    /// A receiver reached as the library's sinks are: a class method through the class's table.
    class Sink {
        var tally = Tally()
        func scalar() -> Bool { fatalError("a sink implements every event") }
        func bytes(_ bytes: UnsafeRawBufferPointer) -> Bool { fatalError("a sink implements every event") }
        func container() -> Bool { fatalError("a sink implements every event") }
    }

    final class CountingSink: Sink {
        override func scalar() -> Bool {
            tally.events &+= 1
            return true
        }
        override func bytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
            tally.events &+= 1
            tally.bytes &+= bytes.count
            return true
        }
        override func container() -> Bool {
            tally.events &+= 1
            return true
        }
    }

    /// What yajl's context points at for the callbacks route: the sink to call (one load, as the tokenizer's `sink`).
    final class CallbackContext {
        var sink: Unmanaged<Sink>
        init(_ sink: Sink) { self.sink = .passUnretained(sink) }
    }

    static func parseWithCallbacks(_ input: UnsafeRawBufferPointer) -> Tally {
        let sink = CountingSink()
        let context = CallbackContext(sink)
        guard let handle = yajl_alloc(callbacks, nil, Unmanaged.passUnretained(context).toOpaque()) else {
            return Tally()
        }
        defer { yajl_free(handle) }
        _ = cyajl_set_dont_validate_strings(handle, 1)
        guard yajl_parse(handle, input.baseAddress!.assumingMemoryBound(to: UInt8.self), input.count) == yajl_status_ok,
            yajl_complete_parse(handle) == yajl_status_ok
        else { return Tally() }
        return withExtendedLifetime(context) { sink.tally }
    }

    nonisolated(unsafe) private static let callbacks: UnsafePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(
            to: yajl_callbacks(
                yajl_null: { context in flag(sink(context)._withUnsafeGuaranteedRef { $0.scalar() }) },
                yajl_boolean: { context, _ in flag(sink(context)._withUnsafeGuaranteedRef { $0.scalar() }) },
                yajl_integer: nil,
                yajl_double: nil,
                yajl_number: { context, text, length in
                    let buffer = UnsafeRawBufferPointer(start: text, count: length)
                    return flag(sink(context)._withUnsafeGuaranteedRef { $0.bytes(buffer) })
                },
                yajl_string: { context, text, length in
                    let buffer = UnsafeRawBufferPointer(start: text, count: length)
                    return flag(sink(context)._withUnsafeGuaranteedRef { $0.bytes(buffer) })
                },
                yajl_start_map: { context in flag(sink(context)._withUnsafeGuaranteedRef { $0.container() }) },
                yajl_map_key: { context, text, length in
                    let buffer = UnsafeRawBufferPointer(start: text, count: length)
                    return flag(sink(context)._withUnsafeGuaranteedRef { $0.bytes(buffer) })
                },
                yajl_end_map: { context in flag(sink(context)._withUnsafeGuaranteedRef { $0.container() }) },
                yajl_start_array: { context in flag(sink(context)._withUnsafeGuaranteedRef { $0.container() }) },
                yajl_end_array: { context in flag(sink(context)._withUnsafeGuaranteedRef { $0.container() }) }
            ))
        return UnsafePointer(table)
    }()

    @inline(__always)
    private static func sink(_ context: UnsafeMutableRawPointer?) -> Unmanaged<Sink> {
        Unmanaged<CallbackContext>.fromOpaque(context.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.sink }
    }

    @inline(__always)
    private static func flag(_ proceed: Bool) -> Int32 { proceed ? 1 : 0 }

    // MARK: - Batched

    /// One event, as the batch holds it.
    struct Token {
        enum Kind: UInt8 { case null, bool, number, string, key, startMap, endMap, startArray, endArray }
        var kind: Kind
        /// Whether the bytes are in the batch's own copy rather than in the input.
        var copied: Bool
        var length: UInt32
        /// Where the bytes start: in the input, or in the batch's copy.
        var start: UInt32
        /// The stream offset just after the token.
        var offset: UInt32
    }

    /// The buffer yajl's callbacks append to, and what the consumer needs to read it.
    struct Batch {
        static let capacity = 4096
        var tokens: UnsafeMutablePointer<Token>
        var count = 0
        var input: UnsafeRawBufferPointer
        var copies: UnsafeMutableRawPointer
        var copiesCapacity: Int
        var copiesCount = 0
        var handle: yajl_handle?
        var tally = Tally()

        init(input: UnsafeRawBufferPointer) {
            tokens = .allocate(capacity: Self.capacity)
            self.input = input
            copiesCapacity = 1 << 16
            copies = .allocate(byteCount: copiesCapacity, alignment: 8)
        }

        func deallocate() {
            tokens.deallocate()
            copies.deallocate()
        }

        @inline(__always)
        mutating func append(_ kind: Token.Kind, _ text: UnsafePointer<UInt8>?, _ length: Int) {
            if count == Self.capacity { consume() }
            var copied = false
            var start = 0
            if length > 0, let text {
                let pointer = UnsafeRawPointer(text)
                let base = input.baseAddress!
                if pointer >= base && pointer + length <= base + input.count {
                    start = pointer - base
                } else {
                    // yajl's own buffer (an escaped string, a token split across chunks): reused by yajl, so copied.
                    if copiesCount + length > copiesCapacity { growCopies(length) }
                    (copies + copiesCount).copyMemory(from: pointer, byteCount: length)
                    start = copiesCount
                    copiesCount += length
                    copied = true
                }
            }
            (tokens + count).initialize(
                to: Token(
                    kind: kind, copied: copied, length: UInt32(truncatingIfNeeded: length),
                    start: UInt32(truncatingIfNeeded: start),
                    offset: UInt32(truncatingIfNeeded: yajl_get_bytes_consumed(handle))))
            count += 1
        }

        @inline(never)
        mutating func growCopies(_ length: Int) {
            let larger = max(copiesCapacity * 2, copiesCount + length)
            let grown = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 8)
            grown.copyMemory(from: copies, byteCount: copiesCount)
            copies.deallocate()
            copies = grown
            copiesCapacity = larger
        }

        /// The one Swift loop: every token of the batch to the consumer, whose handlers are inlined here.
        mutating func consume() {
            var tally = self.tally
            for index in 0..<count {
                let token = tokens[index]
                switch token.kind {
                case .null, .bool: tally.events &+= 1
                case .number, .string, .key:
                    let base = token.copied ? UnsafeRawPointer(copies) : input.baseAddress!
                    let bytes = UnsafeRawBufferPointer(start: base + Int(token.start), count: Int(token.length))
                    tally.events &+= 1
                    tally.bytes &+= bytes.count
                case .startMap, .endMap, .startArray, .endArray: tally.events &+= 1
                }
            }
            self.tally = tally
            count = 0
            copiesCount = 0
        }
    }

    static func parseBatched(_ input: UnsafeRawBufferPointer) -> Tally {
        let batch = UnsafeMutablePointer<Batch>.allocate(capacity: 1)
        batch.initialize(to: Batch(input: input))
        defer {
            batch.pointee.deallocate()
            batch.deinitialize(count: 1)
            batch.deallocate()
        }
        guard let handle = yajl_alloc(batchCallbacks, nil, UnsafeMutableRawPointer(batch)) else { return Tally() }
        batch.pointee.handle = handle
        defer { yajl_free(handle) }
        _ = cyajl_set_dont_validate_strings(handle, 1)
        guard yajl_parse(handle, input.baseAddress!.assumingMemoryBound(to: UInt8.self), input.count) == yajl_status_ok,
            yajl_complete_parse(handle) == yajl_status_ok
        else { return Tally() }
        batch.pointee.consume()
        return batch.pointee.tally
    }

    @inline(__always)
    private static func append(
        _ context: UnsafeMutableRawPointer?, _ kind: Token.Kind, _ text: UnsafePointer<UInt8>? = nil, _ length: Int = 0
    ) -> Int32 {
        context.unsafelyUnwrapped.assumingMemoryBound(to: Batch.self).pointee.append(kind, text, length)
        return 1
    }

    nonisolated(unsafe) private static let batchCallbacks: UnsafePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(
            to: yajl_callbacks(
                yajl_null: { append($0, .null) },
                yajl_boolean: { context, _ in append(context, .bool) },
                yajl_integer: nil,
                yajl_double: nil,
                yajl_number: { context, text, length in
                    append(context, .number, UnsafeRawPointer(text)?.assumingMemoryBound(to: UInt8.self), length)
                },
                yajl_string: { append($0, .string, $1, $2) },
                yajl_start_map: { append($0, .startMap) },
                yajl_map_key: { append($0, .key, $1, $2) },
                yajl_end_map: { append($0, .endMap) },
                yajl_start_array: { append($0, .startArray) },
                yajl_end_array: { append($0, .endArray) }
            ))
        return UnsafePointer(table)
    }()
}
