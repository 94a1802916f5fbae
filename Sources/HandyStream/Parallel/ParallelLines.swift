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
/// The same workers read one large array's elements (ParallelArray.swift).
final class ParallelLines<T>: @unchecked Sendable {
    /// One span's values, read by a worker.
    struct Decoded {
        var values: [T] = []
        var paths: [String] = []
        var lineFeeds = 0
        /// The worker that decoded them (0: the calling thread).
        var worker = 0
        /// What the decoder told, each with the number of values made before it, to be told in order.
        var diagnostics: [(made: Int, diagnostic: DecodingDiagnostic)] = []
        /// A chunk's structure (``Work/scan(_:startsEscaped:base:)``).
        var structure: ChunkStructure?
        /// Top-level elements read, also those that gave no value: an array's span's (``Work/elements(_:)``).
        var elements = 0
    }

    /// What a worker is given: bytes of spans the calling thread holds until the work's outcome is taken or the
    /// workers stop.
    enum Work {
        /// Whole lines, each a top-level value.
        case lines(LineSpan)
        /// An array's bytes, for where its elements part.
        case scan(UnsafeRawBufferPointer, startsEscaped: Bool, base: Int)
        /// Whole elements of an array, and the commas between them, in pieces: read as an array of their own.
        case elements([UnsafeRawBufferPointer])
    }

    /// A new decoder, telling its diagnostics to the handler given, or as the options say if none is.
    typealias DecoderMaker = (_ diagnostics: (@Sendable (DecodingDiagnostic) -> Void)?) throws -> ElementDecoder<T>

    let makeDecoder: DecoderMaker
    let recordsPaths: Bool
    /// The options' diagnostics handler: workers keep what their decoders tell, for this thread to tell in order.
    let diagnostics: (@Sendable (DecodingDiagnostic) -> Void)?
    let jobs: Int
    /// Spans read ahead: enough that no worker waits for the caller.
    let window: Int

    // The workers' share, guarded by `condition`.
    private let condition = NSCondition()
    private var waiting: [(number: Int, work: Work)] = []
    private var finished: [Int: Result<Decoded, any Error>] = [:]
    private var stopping = false
    private var running = 0
    /// Whether workers run: only the calling thread starts and stops them.
    private var started = false
    /// Values handed over, for the worker that made them to release: freeing memory another thread's allocator arena
    /// gave out takes that arena's lock, which the worker holds as it allocates (see Benchmarks/README.md). Guarded by
    /// `condition` while workers run; what they leave is freed on the calling thread, with the next run or `self`.
    var handedOver: [[[T]]] = []

    /// `makeDecoder` is called on the workers' threads and on the calling one: it must make a new decoder each time.
    init(
        jobs: Int, recordsPaths: Bool, diagnostics: (@Sendable (DecodingDiagnostic) -> Void)?,
        makeDecoder: @escaping DecoderMaker
    ) {
        self.jobs = max(1, jobs)
        self.recordsPaths = recordsPaths
        self.diagnostics = diagnostics
        self.makeDecoder = makeDecoder
        window = 2 * self.jobs + 1
    }

    /// For a span of elements: a decoder of one array's elements (see ``ModelDecoder``'s `forEachValue`).
    var makeElementsDecoder: DecoderMaker?
    /// Diagnostics told so far, on the calling thread: a reading from the start doesn't tell them again.
    var diagnosticsTold = 0

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
                if parallel { enqueue(numbered, .lines(span)) }
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
            // Given back also when the body throws: a file's span is a buffer of its own.
            defer { source.recycle(span) }
            try handOver(&decoded, body)
            lineFeedsBefore += decoded.lineFeeds
            spanRead(span.bytes.count)
        }
    }

    /// A span's values to `body`, in order, each after the diagnostics told before it was made; then its values'
    /// memory back to the worker that made it. `rebase`: a path as one reading gives it, from the one the worker
    /// saw (normalized, for a value; the other, a diagnostic's).
    func handOver(
        _ decoded: inout Decoded, rebase: ((String, _ normalized: Bool) -> String)? = nil,
        _ body: (T, String?) throws -> Void
    ) throws {
        var told = decoded.diagnostics[...]
        /// When the next diagnostic is due: checked per value, without a call.
        var nextTold = told.first?.made ?? .max
        func tell(upTo made: Int) {
            while let first = told.first, first.made <= made {
                told.removeFirst()
                var diagnostic = first.diagnostic
                if let rebase { diagnostic.path = rebase(diagnostic.path, false) }
                diagnosticsTold += 1
                diagnostics?(diagnostic)
            }
            nextTold = told.first?.made ?? .max
        }
        // Each value lent to the body, then put back for its worker to free: a copy (an array's subscript, even an
        // unsafe buffer's) would retain what it holds on this thread, and both copies be released.
        let paths = decoded.paths
        try decoded.values.withUnsafeMutableBufferPointer { values in
            guard let first = values.baseAddress else { return }
            for index in values.indices {
                if nextTold <= index { tell(upTo: index) }
                let path = recordsPaths ? rebase.map { $0(paths[index], true) } ?? paths[index] : nil
                // Moved out and back (bitwise), never copied; put back if the body throws too.
                let value = (first + index).move()
                var thrown: (any Error)?
                do { try body(value, path) } catch { thrown = error }
                (first + index).initialize(to: consume value)
                if let thrown { throw thrown }
            }
        }
        tell(upTo: .max)
        if decoded.worker > 0 {
            let values = decoded.values
            decoded.values = []
            condition.lock()
            handedOver[decoded.worker].append(values)
            condition.unlock()
        }
    }

    func enqueue(_ number: Int, _ work: Work) {
        // Workers start with the second span that can be read alone: input read in order needs none.
        if number >= 1 && !started { startWorkers() }
        condition.lock()
        waiting.append((number, work))
        condition.signal()
        condition.unlock()
    }

    /// The calling thread is one of the `jobs`: it decodes spans too while the oldest isn't ready.
    private func startWorkers() {
        started = true
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
    func result(of number: Int) -> Result<Decoded, any Error> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome = finished.removeValue(forKey: number) { return outcome }
            if waiting.isEmpty {
                condition.wait()
                continue
            }
            let (taken, work) = waiting.removeFirst()
            condition.unlock()
            let outcome = decode(work, as: 0)
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
            let (number, work) = waiting.removeFirst()
            condition.unlock()
            released.removeAll()
            let outcome = decode(work, as: worker)
            condition.lock()
            finished[number] = outcome
            condition.broadcast()
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until no worker is left: none reads a span's memory after this. The next work given starts them again.
    func stopWorkers() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        waiting.removeAll()
        finished.removeAll()
        stopping = false
        started = false
        condition.unlock()
    }

    private func decode(_ work: Work, as worker: Int) -> Result<Decoded, any Error> {
        Result {
            switch work {
            case .lines(let span): return try decode(span, as: worker)
            case .scan(let bytes, let startsEscaped, let base):
                let structure = ChunkStructure(bytes, base: base, startsEscaped: startsEscaped)
                return Decoded(worker: worker, structure: structure)
            case .elements(let pieces): return try decode(elements: pieces, as: worker)
            }
        }
    }

    /// Keeps what a decoder tells, each with how many values it had made before; or, past the first `skipping`
    /// (told already), tells it on.
    private final class DiagnosticLog: @unchecked Sendable {
        /// Used on the thread the decoder reads on, while it reads; weak, as the decoder holds the log.
        weak var decoder: ElementDecoder<T>?
        private(set) var kept: [(made: Int, diagnostic: DecodingDiagnostic)] = []
        private let skipping: Int?
        private var seen = 0
        private let handler: (@Sendable (DecodingDiagnostic) -> Void)?

        init(skipping: Int? = nil, handler: (@Sendable (DecodingDiagnostic) -> Void)? = nil) {
            self.skipping = skipping
            self.handler = handler
        }

        func tell(_ diagnostic: DecodingDiagnostic) {
            if let skipping {
                seen += 1
                if seen > skipping { handler?(diagnostic) }
            } else {
                kept.append((decoder?.engine.valuesMade ?? 0, diagnostic))
            }
        }
    }

    /// A decoder from `make`, with `log` (when the options have a diagnostics handler) told what it tells.
    private func decoder(_ make: DecoderMaker, log: DiagnosticLog?) throws -> ElementDecoder<T> {
        guard diagnostics != nil, let log else { return try make(nil) }
        let decoder = try make { log.tell($0) }
        log.decoder = decoder
        return decoder
    }

    /// One span alone, from a fresh decoder resumed at its offset (a span at 0 is the input's start, and decides
    /// its encoding as any reading does).
    private func decode(_ span: LineSpan, as worker: Int) throws -> Decoded {
        // Where one reading has seen a value already, blank lines are nothing; a fresh decoder would want one.
        if span.offset > 0 && span.bytes.allSatisfy(ASCII.isJSONSpace) {
            return Decoded(lineFeeds: span.bytes.count { $0 == 0x0A })
        }
        return try decode(by: makeDecoder, as: worker) { decoder in
            if span.offset > 0 { decoder.engine.resume(atOffset: span.offset, newlines: 0) }
            try decoder.engine.feed(span.bytes)
        }
    }

    /// Elements and the commas between them, read as an array: `[` and `]` around them. Blank bytes are no element
    /// (a comma before them ends the array too early, which only one reading tells).
    private func decode(elements pieces: [UnsafeRawBufferPointer], as worker: Int) throws -> Decoded {
        guard let makeElementsDecoder, pieces.contains(where: { !$0.allSatisfy(ASCII.isJSONSpace) }) else {
            throw JSONDecodingError(
                kind: .malformed, message: "no element between two commas", offset: 0, path: "$",
                input: nil)
        }
        return try decode(by: makeElementsDecoder, as: worker) { decoder in
            decoder.engine.resume(atOffset: 0, newlines: 0)
            if recordsPaths { decoder.recordPaths() }
            try Self.brackets.withUnsafeBytes { brackets in
                try decoder.engine.feed(UnsafeRawBufferPointer(rebasing: brackets[..<1]))
                for piece in pieces { try decoder.engine.feed(piece) }
                try decoder.engine.feed(UnsafeRawBufferPointer(rebasing: brackets[1...]))
            }
        }
    }

    /// A fresh decoder from `make` reads what `read` feeds it: its values, paths and diagnostics, and its counts of
    /// line feeds (for a span's errors' lines) and of elements (for an array's paths).
    private func decode(by make: DecoderMaker, as worker: Int, _ read: (ElementDecoder<T>) throws -> Void) throws
        -> Decoded
    {
        var decoded = Decoded(worker: worker)
        let log = DiagnosticLog()
        let decoder = try decoder(make, log: log)
        try read(decoder)
        try decoder.engine.finish()
        decoded.values = decoder.engine.takeElements()
        if recordsPaths { decoded.paths = decoder.takePaths() }
        decoded.lineFeeds = decoder.engine.lineFeeds
        decoded.elements = decoder.engine.topLevelElements
        decoded.diagnostics = log.kept
        return decoded
    }

    private static var brackets: [UInt8] { [UInt8(ascii: "["), UInt8(ascii: "]")] }

    /// One decoder, resumed where `pending`'s first span begins, reads the rest of the input in order; the first
    /// `skipping` values it makes, and the first `skippingDiagnostics` diagnostics it tells, were handed over already.
    func readInOrder(
        _ pending: [LineSpan], then source: LineSource, lineFeedsBefore: Int, skipping: Int = 0,
        skippingDiagnostics: Int = 0, spanRead: (Int) -> Void, _ body: (T, String?) throws -> Void
    ) throws {
        source.readInOrder()
        let decoder = try decoder(
            makeDecoder,
            log: skippingDiagnostics > 0 ? DiagnosticLog(skipping: skippingDiagnostics, handler: diagnostics) : nil)
        if let first = pending.first, first.offset > 0 {
            decoder.engine.resume(atOffset: first.offset, newlines: lineFeedsBefore)
        }
        var made = 0
        // Each chunk's values, then its paths (taken once the chunk is read), or its error.
        func read(_ bytes: UnsafeRawBufferPointer?) throws {
            var values: [T] = []
            var failure: (any Error)?
            guard recordsPaths else {
                // Straight to the body: a query that sends every match at the end (`$..a`) makes no array of them.
                return try withoutActuallyEscaping(body) { body in
                    let each = { (value: T) in
                        made += 1
                        if made > skipping { try body(value, nil) }
                    }
                    if let bytes {
                        try decoder.feed(bytes, each: each)
                    } else {
                        try decoder.finish(each: each)
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
            let skipped = max(0, min(values.count, skipping - made))
            made += values.count
            for (value, path) in zip(values, decoder.takePaths()).dropFirst(skipped) { try body(value, path) }
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
