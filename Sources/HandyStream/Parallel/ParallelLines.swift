import Foundation

/// Decodes spans of whole lines on worker threads and hands their values over in input order, on the calling thread.
///
///     source ─▶ spans ─▶ jobs - 1 workers and the caller: each span read by a fresh decoder resumed at its offset
///                 └────▶ caller: the oldest span's values, then the next span's … ─▶ body
///
/// Good JSON Lines split anywhere between lines read as one reading does, span by span. For anything else the first
/// span that fails (or that a line too long to hold cuts) is where one decoder takes over: it is resumed at that
/// span's offset, after the line feeds before it, and reads the rest in order, so that every value and the first
/// error are exactly one reading's. A pretty-printed document costs one span's extra work, then reads on one thread.
final class ParallelLines<T>: @unchecked Sendable {
    /// One span's values, read by a worker.
    struct Decoded {
        var values: [T] = []
        var paths: [String] = []
        var lineFeeds = 0
        /// The worker that decoded them (0: the calling thread).
        var worker = 0
    }

    private let makeDecoder: () throws -> ElementDecoder<T>
    private let recordsPaths: Bool
    private let jobs: Int
    /// Spans read ahead: enough that no worker waits for the caller.
    private let window: Int

    // The workers' share, guarded by `condition`.
    private let condition = NSCondition()
    private var waiting: [(number: Int, span: LineSpan)] = []
    private var finished: [Int: Result<Decoded, any Error>] = [:]
    private var stopping = false
    private var running = 0
    /// Values handed over, for the worker that made them to release: freeing memory another thread's allocator arena
    /// gave out takes that arena's lock, which the worker holds as it allocates (see Benchmarks/README.md).
    private var handedOver: [[[T]]] = []

    /// `makeDecoder` is called on the workers' threads: it must make a new decoder each time.
    init(jobs: Int, recordsPaths: Bool, makeDecoder: @escaping () throws -> ElementDecoder<T>) {
        self.jobs = max(1, jobs)
        self.recordsPaths = recordsPaths
        self.makeDecoder = makeDecoder
        window = 2 * self.jobs + 1
    }

    /// Reads `source` to its end; `body` gets each value (and its normalized path, when recorded) in input order,
    /// `spanRead` each span's size once its values are handed over.
    func run(_ source: LineSource, spanRead: (Int) -> Void = { _ in }, _ body: (T, String?) throws -> Void) throws {
        guard jobs > 1 else {
            return try readInOrder([], then: source, lineFeedsBefore: 0, spanRead: spanRead, body)
        }
        handedOver = Array(repeating: [], count: jobs)
        /// Spans read and not yet handed over, in order; `enqueued`: given to the workers.
        var pending: [(number: Int, span: LineSpan, enqueued: Bool)] = []
        defer {
            stopWorkers()
            for (_, span, _) in pending { source.recycle(span) }
        }
        var numbered = 0
        var lineFeedsBefore = 0
        var ended = false
        var parallel = true
        while true {
            // Once a span can't be read alone, none after it is read ahead.
            while !ended && parallel && pending.count < window {
                guard let span = try source.next() else {
                    ended = true
                    break
                }
                if numbered == 0
                    && !InputEncoding.isUTF8(firstBytes: UnsafeRawBufferPointer(rebasing: span.bytes.prefix(4)))
                {
                    // UTF-16 or UTF-32: its line feeds aren't bytes 0A.
                    parallel = false
                }
                // After a span cut inside a line, spans no longer begin between values.
                parallel = parallel && span.endsAtLineEnd
                pending.append((numbered, span, parallel))
                if parallel { enqueue(numbered, span) }
                numbered += 1
            }
            guard let (number, span, enqueued) = pending.first else { return }
            guard enqueued, case .success(var decoded) = result(of: number) else {
                // One decoder reads the rest: `pending` and what the source still has.
                stopWorkers()
                let rest = pending.map { $0.span }
                pending = []
                return try readInOrder(rest, then: source, lineFeedsBefore: lineFeedsBefore, spanRead: spanRead, body)
            }
            pending.removeFirst()
            // Without paths by index, each value lent to the body: iterating copies it, retaining what it holds.
            if recordsPaths {
                for (value, path) in zip(decoded.values, decoded.paths) { try body(value, path) }
            } else {
                for index in decoded.values.indices { try body(decoded.values[index], nil) }
            }
            lineFeedsBefore += decoded.lineFeeds
            source.recycle(span)
            spanRead(span.bytes.count)
            if decoded.worker > 0 {
                let values = decoded.values
                decoded.values = []
                condition.lock()
                handedOver[decoded.worker].append(values)
                condition.unlock()
            }
        }
    }

    private func enqueue(_ number: Int, _ span: LineSpan) {
        // Workers start with the second span that can be read alone: input read in order needs none.
        if number == 1 { startWorkers() }
        condition.lock()
        waiting.append((number, span))
        condition.signal()
        condition.unlock()
    }

    /// The calling thread is one of the `jobs`: it decodes spans too while the oldest isn't ready.
    private func startWorkers() {
        for worker in 1..<jobs {
            condition.lock()
            running += 1
            condition.unlock()
            let thread = Thread { [self] in work(as: worker) }
            // As a main thread's: the decoders' own stack guard is for the depth cap, not for a small stack.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Span `number`'s outcome: the calling thread decodes waiting spans, oldest first, until a worker or it has it.
    private func result(of number: Int) -> Result<Decoded, any Error> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome = finished.removeValue(forKey: number) { return outcome }
            if waiting.isEmpty {
                condition.wait()
                continue
            }
            let (taken, span) = waiting.removeFirst()
            condition.unlock()
            let outcome = decode(span, as: 0)
            condition.lock()
            if taken == number { return outcome }
            finished[taken] = outcome
        }
    }

    private func work(as worker: Int) {
        var released: [[T]] = []
        condition.lock()
        while true {
            while waiting.isEmpty && !stopping { condition.wait() }
            if stopping { break }
            swap(&released, &handedOver[worker])
            let (number, span) = waiting.removeFirst()
            condition.unlock()
            released.removeAll()
            let outcome = decode(span, as: worker)
            condition.lock()
            finished[number] = outcome
            condition.broadcast()
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until no worker is left: none reads a span's memory after this.
    private func stopWorkers() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        waiting.removeAll()
        finished.removeAll()
        condition.unlock()
    }

    /// One span alone, from a fresh decoder resumed at its offset (a span at 0 is the input's start, and decides
    /// its encoding as any reading does).
    private func decode(_ span: LineSpan, as worker: Int) -> Result<Decoded, any Error> {
        Result {
            // Where one reading has seen a value already, blank lines are nothing; a fresh decoder would want one.
            if span.offset > 0 && isBlank(span.bytes) { return Decoded(lineFeeds: lineFeeds(in: span.bytes)) }
            let decoder = try makeDecoder()
            if span.offset > 0 { decoder.resume(atOffset: span.offset, newlines: 0) }
            var decoded = Decoded(worker: worker)
            try decoder.feed(span.bytes) { decoded.values.append($0) }
            try decoder.finish { decoded.values.append($0) }
            if recordsPaths { decoded.paths = decoder.takePaths() }
            // Counted by the pipeline for its errors' lines, as it read.
            decoded.lineFeeds = decoder.lineFeeds
            return decoded
        }
    }

    /// One decoder, resumed where `pending`'s first span begins, reads the rest of the input in order.
    private func readInOrder(
        _ pending: [LineSpan], then source: LineSource, lineFeedsBefore: Int,
        spanRead: (Int) -> Void, _ body: (T, String?) throws -> Void
    ) throws {
        source.readInOrder()
        let decoder = try makeDecoder()
        if let first = pending.first, first.offset > 0 {
            decoder.resume(atOffset: first.offset, newlines: lineFeedsBefore)
        }
        // Each chunk's values, then its paths (taken once the chunk is read), or its error.
        func read(_ bytes: UnsafeRawBufferPointer?) throws {
            var values: [T] = []
            var failure: (any Error)?
            guard recordsPaths else {
                // Straight to the body: a query that sends every match at the end (`$..a`) makes no array of them.
                return try withoutActuallyEscaping(body) { body in
                    if let bytes {
                        try decoder.feed(bytes) { try body($0, nil) }
                    } else {
                        try decoder.finish { try body($0, nil) }
                    }
                }
            }
            do {
                if let bytes {
                    try decoder.feed(bytes) { values.append($0) }
                } else {
                    try decoder.finish { values.append($0) }
                }
            } catch {
                failure = error
            }
            for (value, path) in zip(values, decoder.takePaths()) { try body(value, path) }
            if let failure { throw failure }
        }
        func read(_ span: LineSpan) throws {
            defer { source.recycle(span) }
            try read(span.bytes)
            spanRead(span.bytes.count)
        }
        var rest = pending[...]
        defer { for span in rest { source.recycle(span) } }
        // Bytes in memory are read again from there as one chunk, as one reading takes them: a chunk's end inside a
        // string can move where an error in it is reported.
        if let first = rest.first, source.rereads(from: first.offset) {
            for span in rest { source.recycle(span) }
            rest = []
        }
        while let span = rest.popFirst() { try read(span) }
        while let span = try source.next() { try read(span) }
        try read(nil)
    }
}
