/// The model builder: a state machine over an explicit stack of ``Frame``s, driven by the tokenizer's events.
///
///     events ─▶ Builder ─▶ top frame ─▶ scalar stored at its target (by the frame, or through its codec)
///                  │           └────▶ openChild ─▶ push a child frame; when it ends, childFinished ─▶ pop
///                  └─ skipDepth > 0: a subtree nobody wants, only counted
///
/// Nesting is the stack, not recursion, capped at ``DecodingRun/maximumDepth`` levels (skipped ones count): hostile
/// input meets an error, not a stack overflow. Once the root value is complete, the ``StageOwner`` says whether to read
/// on.
final class Builder: TokenSink {
    let options: DecodingOptions
    /// Unretained: the pipeline that sets it owns the builder and drives every event, so it outlives each call.
    var owner: Unmanaged<StageOwner>?
    let run: DecodingRun
    @inline(__always)
    var currentOffset: Int { run.offset }
    /// Per depth, the frame open there (`levels[0]`: the root frame) and the frames used there before, in raw memory
    /// so that a push or pop costs no reference counting. `ownedFrames` owns the frames.
    @exclusivity(unchecked) private var levels = RawBuffer<Level>(capacity: 64)
    private struct Level {
        /// Current up to ``height``.
        var frame: Unmanaged<Frame>
        /// A list through ``Frame/nextAtDepth``: an object's children differ in type.
        var recycled: Unmanaged<Frame>?
    }
    /// `levels[height].frame`.
    private var top: Unmanaged<Frame>
    /// The index of the top frame: `depth` less the skipped levels, once all is well.
    private var height = 0
    private let root: Frame
    private var ownedFrames: [Frame] = []
    /// Containers nested so far, skipped ones included.
    private(set) var depth = 0
    /// > 0 while skipping a subtree: how many of its containers are open.
    private var skipDepth = 0
    var failure: BuildFailure? { run.failure }
    /// Whether the value being finished (a container closing now, or a scalar arriving) is the root value itself.
    var atRootValue: Bool { height == 0 }

    init(root: Frame, run: DecodingRun) {
        self.root = root
        self.top = .passUnretained(root)
        self.run = run
        options = run.options
        levels.append(Level(frame: top))
    }

    deinit {
        for level in stride(from: height, through: 0, by: -1) {
            levels[level].frame.withInstance { $0.discard() }
        }
        levels.deallocate()
    }

    // MARK: - Events

    // The events are inlined into the tokenizer's thunks, which call the builder directly (``Tokenizer/Sink``).

    @inline(__always) override func tokenNull() -> Bool {
        if skipDepth > 0 { return true }
        return top.withInstance { $0.null(self) }
    }
    @inline(__always) override func tokenBool(_ value: Bool) -> Bool {
        if skipDepth > 0 { return true }
        return top.withInstance { $0.bool(value, self) }
    }
    @inline(__always) override func tokenNumber(_ text: UnsafeRawBufferPointer) -> Bool {
        if skipDepth > 0 { return true }
        return top.withInstance { $0.number(text, self) }
    }
    @inline(__always) override func tokenString(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if skipDepth > 0 { return true }
        return top.withInstance { $0.string(bytes, self) }
    }
    @inline(__always) override func tokenKey(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if skipDepth > 0 { return true }
        return top.withInstance { $0.key(bytes, self) }
    }
    override func tokenReady(_ value: Any) -> Bool? {
        skipDepth > 0 ? true : top.withInstance { $0.ready(value, self) }
    }
    @inline(__always) override func tokenStartMap() -> Bool { open(isObject: true) }
    @inline(__always) override func tokenStartArray() -> Bool { open(isObject: false) }
    @inline(__always) override func tokenEndMap() -> Bool { close() }
    @inline(__always) override func tokenEndArray() -> Bool { close() }

    @inline(__always)
    private func open(isObject: Bool) -> Bool {
        depth += 1
        // The run's allowance: the cap less the levels a path filter entered, so the cap holds for the whole document.
        if depth > run.depthAllowance { return tooDeep() }
        if skipDepth > 0 {
            skipDepth += 1
            return true
        }
        if depth == levels.count { _slowpath_deepen() }
        guard let child = top.withInstance({ $0.openChild(isObject: isObject, self) }) else {
            if failure != nil { return false }
            skipDepth = 1
            return true
        }
        top = child
        height = depth
        levels[height].frame = top
        return true
    }

    @inline(never)
    private func _slowpath_deepen() { levels.append(Level(frame: top)) }

    @inline(__always)
    private func close() -> Bool {
        depth -= 1
        if skipDepth > 0 {
            skipDepth -= 1
            if skipDepth == 0 {
                top.withInstance { $0.skipped() }
                if depth == 0 { return rootCompleted() }
            }
            return true
        }
        let child = top
        height = depth
        top = levels[height].frame
        return child.withInstance { child in
            guard child.finish(self) else { return false }
            return top.withInstance { $0.childFinished(child, self) }
        }
    }

    // MARK: - Frames

    /// The frame on top of the stack (the one opening a child now), when it fills properties.
    var topPropertyFrame: PropertyFrame? { top.withInstance { $0 as? PropertyFrame } }

    /// A frame for the container opening now: the same codec's last one at this depth, else `make`'s; begun afresh.
    /// Unretained: the builder owns every frame it made (`ownedFrames`).
    @inline(__always)
    func frame(openedBy codec: ValueCodec, isObject: Bool, make: () -> Frame) -> Unmanaged<Frame> {
        var candidate = levels[depth].recycled
        while let cached = candidate {
            let matches = cached.withInstance { frame -> Bool in
                guard frame.opener === codec && frame.isObject == isObject else { return false }
                frame.begin(self)
                return true
            }
            if matches { return cached }
            candidate = cached.withInstance { $0.nextAtDepth }
        }
        return _slowpath_newFrame(make)
    }

    @inline(never)
    private func _slowpath_newFrame(_ make: () -> Frame) -> Unmanaged<Frame> {
        let frame = make()
        ownedFrames.append(frame)
        frame.nextAtDepth = levels[depth].recycled
        levels[depth].recycled = .passUnretained(frame)
        frame.begin(self)
        return .passUnretained(frame)
    }

    // MARK: - Outcomes

    func rootCompleted() -> Bool {
        owner?.withInstance { $0.builderCompletedRoot(self) } ?? true
    }

    /// A value the lenient rules can't use: `problem` says what was expected and found, `consequence` what lenient mode
    /// does. Strict mode fails with the problem; otherwise diagnostics hear both. Returns whether to go on.
    @inline(never)
    func fallback(_ problem: String, _ consequence: String) -> Bool {
        if options.strict {
            var failure = BuildFailure(kind: .typeMismatch, message: problem, path: currentPath())
            // A value whose own decoding failed (a `Decodable` scalar's `init(from:)`): its error says more.
            failure.underlying = run.takeValueFailure()?.error
            return run.fail(failure)
        }
        if let handler = options.diagnostics {
            handler(DecodingDiagnostic(path: currentPath(), message: problem + consequence))
        }
        return true
    }

    @inline(never)
    func tooDeep() -> Bool { run.tooDeep(at: currentPath()) }

    /// The JSON path of the current position: `$.data.items[3].price`.
    func currentPath() -> String {
        var path = run.valuePath
        for level in 0...height {
            // A frame that handles its own nesting (JSONText) stands at several levels and gives all of them at once.
            let frame = levels[level].frame
            if level > 0 && frame.toOpaque() == levels[level - 1].frame.toOpaque() { continue }
            frame.withInstance { $0.appendPosition(to: &path) }
        }
        return path
    }
}

/// An error the builder found, not the tokenizer: it stops the parse and becomes a ``JSONDecodingError``.
struct BuildFailure: Error {
    var kind: JSONDecodingError.Kind
    var message: String
    var path: String
    /// A `Decodable` value's own error, thrown instead of a ``JSONDecodingError``, with the location added.
    var underlying: (any Error)? = nil
    /// Where the error is, when not at the token being handled (a `Decodable` value's inner token).
    var offset: Int? = nil
}
