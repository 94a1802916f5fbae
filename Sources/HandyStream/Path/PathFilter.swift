/// Passes on only the events of the value at a designated path, and skips everything else by counting depth.
///
/// Nothing is built on the way: keys are compared as bytes with the path's segments, siblings are skipped, and when
/// the designated value starts the filter tells its delegate (the pipeline), which hands the tokenizer straight to the
/// builder (so the value's own events
/// cost nothing extra). The builder then stops the parse once the value is complete: the rest of the document is
/// never read. A path that is not in the document is an error at the point where that becomes certain.
final class PathFilter: TokenSink {
    /// What the filter waits for.
    private enum State {
        /// The value at `path.segments[..<matched]`; when all segments match, it is the designated value.
        case needValue
        /// A key inside the object at the matched prefix.
        case objectNeedKey
        /// The value of a key that is not the one wanted.
        case objectSkipValue
        /// An element of the array at the matched prefix; `index` counts them.
        case arrayNeedElement(index: Int)
        /// The designated value has started: events go to the builder.
        case passing
        /// Element streaming: the next element of the designated array; each goes to the builder as a root value.
        case streamingArray(index: Int)
        /// Element streaming: the designated array has ended; the rest of the top-level value is only checked.
        case afterTarget
    }

    /// What the filter hands to the builder.
    enum Mode {
        /// The one value at the path.
        case single
        /// Each element of the array at the path, or with `topLevelValues`, each top-level value at the path.
        case elements(topLevelValues: Bool)
    }

    private let path: DesignatedPath
    private let mode: Mode
    private unowned let builder: Builder
    /// What the filter tells the stage that owns it: it changes no other stage's fields itself.
    protocol Delegate: AnyObject {
        /// The designated value (or element `index` of the designated array, or the value at the path in a top-level
        /// value) starts: its events go to the builder from now on. `path` is the JSON path of where it is, and
        /// `outerDepth` how many containers enclose it.
        func pathFilter(_ filter: PathFilter, handsOverAt path: String, index: Int?, outerDepth: Int)
        /// The value handed over is complete: events come back to the filter.
        func pathFilterTakesBack(_ filter: PathFilter)
    }

    weak var delegate: Delegate?
    private var state = State.needValue
    private var matched = 0
    /// > 0 while skipping a container.
    private var skipDepth = 0
    /// Total open containers, to hold the same nesting cap as the builder while skipping.
    private var depth = 0
    private(set) var failure: BuildFailure?

    init(path: DesignatedPath, builder: Builder, mode: Mode = .single) {
        self.path = path
        self.builder = builder
        self.mode = mode
    }

    /// Element streaming: the builder has completed an element (or a top-level value); events come back here.
    func resume() {
        delegate?.pathFilterTakesBack(self)
        guard case .passing = state else { return }
        if case .elements(topLevelValues: true) = mode {
            // The value at the path is done; the rest of its top-level value is only checked.
            if depth == 0 {
                state = .needValue
                matched = 0
            } else {
                state = .afterTarget
            }
        } else {
            state = .streamingArray(index: streamedIndex + 1)
        }
    }

    /// The index of the element being streamed.
    private var streamedIndex = 0
    /// The path of the array being streamed, made once per array.
    private var streamedPrefix: String?

    /// Whether the value being handed over is a top-level value or an array element (element streaming).
    private var handsOverEachTopLevelValue: Bool {
        if case .elements(topLevelValues: true) = mode { return true }
        return false
    }

    /// A top-level value has ended: with several values in the input, the path applies to the next one afresh.
    private func topLevelValueEnded() {
        if case .elements = mode {
            state = .needValue
            matched = 0
        }
    }

    // MARK: - Events

    override func tokenNull() -> Bool { scalar { $0.tokenNull() } }
    override func tokenBool(_ value: Bool) -> Bool { scalar { $0.tokenBool(value) } }
    override func tokenNumber(_ text: UnsafeRawBufferPointer) -> Bool { scalar { $0.tokenNumber(text) } }
    override func tokenString(_ bytes: UnsafeRawBufferPointer) -> Bool { scalar { $0.tokenString(bytes) } }

    override func tokenKey(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if case .passing = state { return builder.tokenKey(bytes) }
        if skipDepth > 0 { return true }
        if case .afterTarget = state { return true }
        guard case .objectNeedKey = state, case .key(let wanted) = path.segments[matched] else {
            fatalError("PathFilter: a key arrived in state \(state)")
        }
        if wanted.elementsEqual(bytes) {
            matched += 1
            state = .needValue
        } else {
            state = .objectSkipValue
        }
        return true
    }

    /// Ready values are taken only inside the designated value; elsewhere their events find the path.
    override func tokenReady(_ value: Any) -> Bool? {
        if case .passing = state { return builder.tokenReady(value) }
        return nil
    }
    override func tokenStartMap() -> Bool { open(isObject: true) }
    override func tokenStartArray() -> Bool { open(isObject: false) }
    override func tokenEndMap() -> Bool { close(isObject: true) }
    override func tokenEndArray() -> Bool { close(isObject: false) }

    // MARK: - Transitions

    private func scalar(_ forward: (Builder) -> Bool) -> Bool {
        if skipDepth > 0 { return true }
        switch state {
        case .passing:
            return forward(builder)
        case .afterTarget:
            if depth == 0 { topLevelValueEnded() }
            return true
        case .streamingArray(let index):
            return handOverElement(index, forward)
        case .needValue:
            if matched == path.segments.count {
                if case .elements(topLevelValues: false) = mode {
                    return notFound("found a scalar value instead of an array to stream")
                }
                return handOver(forward)
            }
            return notFound("found a scalar value instead of \(expectedContainer)")
        case .objectSkipValue:
            state = .objectNeedKey
            return true
        case .arrayNeedElement(let index):
            if case .index(index) = path.segments[matched] {
                matched += 1
                state = .needValue
                return scalar(forward)
            }
            state = .arrayNeedElement(index: index + 1)
            return true
        case .objectNeedKey:
            fatalError("PathFilter: a value arrived where a key belongs")
        }
    }

    /// Element streaming: hands one element of the designated array to the builder.
    private func handOverElement(_ index: Int, _ forward: (Builder) -> Bool) -> Bool {
        streamedIndex = index
        state = .passing
        if index == 0 || streamedPrefix == nil { streamedPrefix = path.jsonPath(prefix: matched) }
        delegate?.pathFilter(self, handsOverAt: streamedPrefix!, index: index, outerDepth: depth)
        return forward(builder)
    }

    private func open(isObject: Bool) -> Bool {
        if case .passing = state { return isObject ? builder.tokenStartMap() : builder.tokenStartArray() }
        if skipDepth == 0, case .streamingArray(let index) = state {
            return handOverElement(index) { isObject ? $0.tokenStartMap() : $0.tokenStartArray() }
        }
        depth += 1
        if depth > builder.maximumDepth {
            return fail(BuildFailure(kind: .tooDeep, message: "nesting deeper than \(builder.maximumDepth) levels",
                                     path: path.jsonPath(prefix: matched)))
        }
        if skipDepth > 0 {
            skipDepth += 1
            return true
        }
        switch state {
        case .afterTarget:
            skipDepth = 1
            return true
        case .needValue:
            if matched == path.segments.count {
                if case .elements(topLevelValues: false) = mode {
                    guard !isObject else { return notFound("found an object instead of an array to stream") }
                    state = .streamingArray(index: 0)
                    return true
                }
                depth -= 1
                return handOver { isObject ? $0.tokenStartMap() : $0.tokenStartArray() }
            }
            switch (path.segments[matched], isObject) {
            case (.key, true): state = .objectNeedKey
            case (.index, false): state = .arrayNeedElement(index: 0)
            default:
                return notFound("found \(isObject ? "an object" : "an array") instead of \(expectedContainer)")
            }
            return true
        case .objectSkipValue:
            skipDepth = 1
            return true
        case .arrayNeedElement(let index):
            if case .index(index) = path.segments[matched] {
                matched += 1
                state = .needValue
                depth -= 1
                return open(isObject: isObject)
            }
            skipDepth = 1
            return true
        case .objectNeedKey, .passing, .streamingArray:
            fatalError("PathFilter: a container opened in state \(state)")
        }
    }

    private func close(isObject: Bool) -> Bool {
        if case .passing = state { return isObject ? builder.tokenEndMap() : builder.tokenEndArray() }
        depth -= 1
        if skipDepth > 0 {
            skipDepth -= 1
            if skipDepth == 0 {
                switch state {
                case .objectSkipValue: state = .objectNeedKey
                case .arrayNeedElement(let index): state = .arrayNeedElement(index: index + 1)
                case .afterTarget: if depth == 0 { topLevelValueEnded() }
                default: break
                }
            }
            return true
        }
        switch state {
        case .streamingArray:
            // The designated array has ended.
            state = .afterTarget
            if depth == 0 { topLevelValueEnded() }
            return true
        case .afterTarget:
            if depth == 0 { topLevelValueEnded() }
            return true
        default:
            break
        }
        // The container at the matched prefix ended before the wanted key or index appeared.
        switch path.segments[matched] {
        case .key(let key):
            return notFound("no key '\(String(decoding: key, as: UTF8.self))' in the object")
        case .index(let index):
            return notFound("no element [\(index)] in the array")
        case .everyElement:
            return notFound("no array")
        }
    }

    private var expectedContainer: String {
        if case .key = path.segments[matched] { return "an object" }
        return "an array"
    }

    private func handOver(_ forward: (Builder) -> Bool) -> Bool {
        state = .passing
        delegate?.pathFilter(self, handsOverAt: path.jsonPath(prefix: matched), index: nil, outerDepth: depth)
        return forward(builder)
    }

    private func notFound(_ detail: String) -> Bool {
        fail(BuildFailure(kind: .pathNotFound, message: "path '\(path.text)' not found: \(detail)",
                          path: path.jsonPath(prefix: matched)))
    }

    private func fail(_ failure: BuildFailure) -> Bool {
        self.failure = failure
        return false
    }

    /// The path to where the filter is, for errors found by yajl before the designated value: the matched prefix,
    /// and the element being passed over in an array on the way.
    var currentPath: String {
        let prefix = path.jsonPath(prefix: matched)
        if case .arrayNeedElement(let index) = state { return prefix + "[\(index)]" }
        return prefix
    }

    /// Whether the builder has the tokenizer now.
    var isPassing: Bool {
        if case .passing = state { return true }
        return false
    }
}
