/// Passes on only the events of the values a designated path matches, skipping the rest by counting depth and building
/// nothing (keys are compared as bytes). A stack holds the containers on the way to a match, each with the segment its
/// children are matched against:
///
///     statuses[*].user     $ (object: key "statuses") ▸ statuses (array: every element) ▸ [3] (object: key "user")
///
/// When a match starts, the pipeline hands the tokenizer to the builder, and takes it back when the value is complete
/// (``resume()``). With wildcards, in single mode, the filter forwards the matches itself, inside an array of its own
/// making, until the first wildcard's container ends. A path missing from the document is an error once that is
/// certain; within a wildcard, a value lacking the rest is no match.
final class PathFilter: TokenSink {
    private struct Level {
        var isObject: Bool
        /// The segment this container's children are matched against.
        var segment: Int
        /// Arrays: the index that segment wants, or -1 for every element (kept here for each element judged).
        var wantedIndex: Int
        /// Which container this is: the run is told its path once for all the elements handed on (``pathHandedOver``).
        var serial: Int
        /// Arrays: the elements completed so far, the index of the one being read.
        var index = 0
        /// Whether the value being read (after the current key, or the current element) matches the segment.
        var childMatches = false
        /// An exact segment (a key, an index) matched here.
        var found = false
        /// Objects: the key read last, matched or not, so that an error in a skipped member names it (buffer reused).
        var key: [UInt8] = []
        /// This container's JSON path (``currentPath`` when it opened).
        var path: String
    }

    private let path: DesignatedPath
    /// One value (the value at a path without wildcards, or every match collected into one array); otherwise each
    /// match is a value of its own, in every top-level value of the input (element streaming, JSON Lines).
    private let single: Bool
    /// Single with wildcards: the filter forwards the matches into an array of its own making.
    private let collects: Bool
    /// Where matches' events go (a query stage, or the builder); unretained, as the pipeline owns both; called
    /// through ``toNext(_:)``.
    private let nextReference: Unmanaged<TokenSink>
    /// The builder, which the brackets of the array of collected matches go to straight, past any query stage.
    private let builderReference: Unmanaged<TokenSink>
    /// The nesting cap, the same as the builder's (every container counts, skipped ones too).
    private let maximumDepth: Int
    /// Told when a match starts and ends. Unretained, as ``Builder/owner`` is: the pipeline owns the filter.
    var owner: Unmanaged<StageOwner>?
    /// The first wildcard segment: in single mode matches are collected, and none can come after its container ends.
    private let firstWildcard: Int?
    /// The open containers, outermost first (freed by `deinit`), so that changing the innermost level in place costs
    /// no exclusivity or uniqueness check.
    @exclusivity(unchecked) private var levels = RawBuffer<Level>(capacity: 8)
    private var levelCount: Int { levels.count }
    /// Total open containers, to hold the same nesting cap as the builder while skipping.
    private var depth = 0
    private var nextSerial = 0
    /// The serial of the array whose path the run last got, or -1: its next element only moves the index.
    private var pathHandedOver = -1

    private enum State: Equatable {
        /// Matching the path: each value that starts is judged against the innermost level's segment. Next: searching
        /// (a container on the way), skipping, passing (a match handed over) or forwarding (a collected match).
        case searching
        /// Inside a container that can't match: how many of its containers are open. Next: searching.
        case skipping(depth: Int)
        /// Collected matches: a match's events go to the builder, into the array of matches. Next: searching.
        case forwarding(depth: Int)
        /// The builder has the tokenizer: a match is being built. Next: searching, after ``resume()``.
        case passing
    }

    private var state = State.searching
    /// Nothing more can match in this top-level value, whatever the state (cleared at the next one, in stream mode).
    private var exhausted = false
    /// Single mode with wildcards: the array of matches was opened.
    private var collecting = false

    var isPassing: Bool { state == .passing }

    /// Whether the container just opened is an array that the path's first `keys` segments, all keys, led to, and
    /// whose every element the path matches or goes on into (segment `keys` is `[*]` or `*`), no element read yet:
    /// where a parallel reading of the elements may start.
    func opensEveryElement(afterKeys keys: Int) -> Bool {
        guard state == .searching, !exhausted, levelCount == keys + 1, depth == levelCount,
            let level = innermost?.pointee, !level.isObject, level.index == 0
        else { return false }
        return level.segment == keys && level.wantedIndex < 0
    }

    /// Whether the value after the path's `keys` segments, all of the path, is being handed on, and none of them was
    /// skipped on the way.
    func passesMatch(afterKeys keys: Int) -> Bool {
        state == .passing && path.segments.count == keys && levelCount == keys && depth == levelCount
    }

    /// The elements of the last top-level array read: those of a span of a large array, read as an array of its own.
    private(set) var topLevelElements = 0

    private let run: DecodingRun

    init(path: DesignatedPath, next: TokenSink, builder: TokenSink, run: DecodingRun, single: Bool) {
        self.path = path
        nextReference = .passUnretained(next)
        builderReference = .passUnretained(builder)
        maximumDepth = run.maximumDepth
        self.run = run
        self.single = single
        firstWildcard = path.firstWildcard
        collects = single && firstWildcard != nil
    }

    deinit {
        levels.deallocate()
    }

    // MARK: - Levels

    @inline(__always)
    private var innermost: UnsafeMutablePointer<Level>? {
        levelCount > 0 ? levels.base + (levelCount &- 1) : nil
    }

    /// A matched value handed to the builder is complete: events come back here.
    func resume() {
        owner?.withInstance { $0.pathFilterTakesBack(self) }
        guard state == .passing else { return }
        state = .searching
        // A path without wildcards matches once per top-level value.
        if firstWildcard == nil { exhausted = true }
        valueEnded()
    }

    @inline(__always)
    private func toNext(_ event: (TokenSink) -> Bool) -> Bool { nextReference.withInstance(event) }
    private func toBuilder(_ event: (TokenSink) -> Bool) -> Bool { builderReference.withInstance(event) }

    // MARK: - Events

    override func tokenNull() -> Bool { scalar { $0.tokenNull() } }
    override func tokenBool(_ value: Bool) -> Bool { scalar { $0.tokenBool(value) } }
    override func tokenNumber(_ text: UnsafeRawBufferPointer) -> Bool { scalar { $0.tokenNumber(text) } }
    override func tokenString(_ bytes: UnsafeRawBufferPointer) -> Bool { scalar { $0.tokenString(bytes) } }

    override func tokenKey(_ bytes: UnsafeRawBufferPointer) -> Bool {
        switch state {
        case .passing, .forwarding: return toNext { $0.tokenKey(bytes) }
        case .skipping: return true
        case .searching: break
        }
        guard let level = innermost, level.pointee.isObject else {
            fatalError("PathFilter: a key arrived outside an object")
        }
        switch path.segments[level.pointee.segment] {
        case .key(let wanted):
            level.pointee.childMatches = wanted.elementsEqual(bytes)
            if level.pointee.childMatches { level.pointee.found = true }
        case .everyMember, .everyChild:
            level.pointee.childMatches = true
        case .index, .everyElement:
            fatalError("PathFilter: an object where an array segment applies")
        }
        level.pointee.key.removeAll(keepingCapacity: true)
        level.pointee.key.append(contentsOf: bytes)
        return true
    }

    /// Ready values are taken only inside a match; elsewhere their events find the path.
    override func tokenReady(_ value: Any) -> Bool? {
        switch state {
        case .passing, .forwarding: return nextReference.withInstance { $0.tokenReady(value) }
        case .searching, .skipping: return nil
        }
    }

    override func tokenStartMap() -> Bool { open(isObject: true) }
    override func tokenStartArray() -> Bool { open(isObject: false) }
    override func tokenEndMap() -> Bool { close(isObject: true) }
    override func tokenEndArray() -> Bool { close(isObject: false) }

    // MARK: - Transitions

    private enum Verdict {
        case skip
        case match
        /// A container on the way: its children are matched against this segment.
        case descend(Int)
        /// It has the wrong shape for the segment: an error before any wildcard, no match after one.
        case mismatch(Int)
    }

    private func verdict(isContainer: Bool, isObject: Bool) -> Verdict {
        if exhausted { return .skip }
        let matched: Int
        if let level = innermost {
            if !level.pointee.isObject {
                let wanted = level.pointee.wantedIndex
                if wanted < 0 {
                    level.pointee.childMatches = true
                } else {
                    level.pointee.childMatches = level.pointee.index == wanted
                    if level.pointee.childMatches { level.pointee.found = true }
                }
            }
            guard level.pointee.childMatches else { return .skip }
            matched = level.pointee.segment + 1
        } else {
            matched = 0
        }
        if matched == path.segments.count { return .match }
        let fits: Bool
        switch path.segments[matched] {
        case .key, .everyMember: fits = isObject
        case .index, .everyElement: fits = !isObject
        case .everyChild: fits = true
        }
        return isContainer && fits ? .descend(matched) : .mismatch(matched)
    }

    /// Whether a missing part is no match rather than an error: past a wildcard, or anywhere in a JSONPath query that
    /// gives a nodelist (one that isn't singular, or read as a stream of values); a singular query's value must exist.
    private func withinWildcard(_ count: Int) -> Bool {
        if path.isQuery && (!path.isSingular || !single) { return true }
        guard let firstWildcard else { return false }
        return firstWildcard < count
    }

    private func scalar(_ forward: (TokenSink) -> Bool) -> Bool {
        switch state {
        case .passing, .forwarding: return toNext(forward)
        case .skipping: return true
        case .searching: break
        }
        switch verdict(isContainer: false, isObject: false) {
        case .skip:
            return valueEnded()
        case .match:
            matchStarts()
            if !collects { handOver() }
            // A collected scalar goes into the array the builder is filling, and the wildcard's container reads on.
            return toNext(forward) && (!collects || valueEnded())
        case .mismatch(let matched):
            if withinWildcard(matched) { return valueEnded() }
            return notFound("found a scalar value instead of \(expectedContainer(matched))", at: currentPath)
        case .descend:
            fatalError("PathFilter: a scalar cannot be descended into")
        }
    }

    private func open(isObject: Bool) -> Bool {
        switch state {
        case .passing: return toNext { isObject ? $0.tokenStartMap() : $0.tokenStartArray() }
        case .forwarding(let open):
            state = .forwarding(depth: open + 1)
            return toNext { isObject ? $0.tokenStartMap() : $0.tokenStartArray() }
        case .searching, .skipping: break
        }
        depth += 1
        if depth > maximumDepth {
            return run.tooDeep(at: currentPath)
        }
        if case .skipping(let open) = state {
            state = .skipping(depth: open + 1)
            return true
        }
        switch verdict(isContainer: true, isObject: isObject) {
        case .skip:
            state = .skipping(depth: 1)
            return true
        case .match:
            depth -= 1
            matchStarts()
            if collects { state = .forwarding(depth: 1) } else { handOver() }
            return toNext { isObject ? $0.tokenStartMap() : $0.tokenStartArray() }
        case .descend(let segment):
            var wantedIndex = -1
            if case .index(let wanted) = path.segments[segment] { wantedIndex = wanted }
            levels.append(
                Level(
                    isObject: isObject, segment: segment, wantedIndex: wantedIndex, serial: nextSerial,
                    path: currentPath)
            )
            nextSerial += 1
            if collects && segment == firstWildcard {
                // The matches are collected into an array that this container's end closes.
                collecting = true
                handOverPath(path.jsonPath, index: nil)
                return toBuilder { $0.tokenStartArray() }
            }
            return true
        case .mismatch(let matched):
            if withinWildcard(matched) {
                state = .skipping(depth: 1)
                return true
            }
            return notFound(
                "found \(isObject ? "an object" : "an array") instead of \(expectedContainer(matched))",
                at: currentPath)
        }
    }

    private func close(isObject: Bool) -> Bool {
        switch state {
        case .passing: return toNext({ isObject ? $0.tokenEndMap() : $0.tokenEndArray() })
        case .forwarding(let open):
            state = open > 1 ? .forwarding(depth: open - 1) : .searching
            guard toNext({ isObject ? $0.tokenEndMap() : $0.tokenEndArray() }) else { return false }
            if open == 1 { valueEnded() }
            return true
        case .skipping(let open):
            depth -= 1
            state = open > 1 ? .skipping(depth: open - 1) : .searching
            return open == 1 ? valueEnded() : true
        case .searching:
            depth -= 1
        }
        // The tokenizer closes only what opened: an unmatched close is a defect, and `removeLast` traps on it.
        let level = levels.removeLast()
        if levelCount == 0 && !level.isObject { topLevelElements = level.index }
        if !level.found && !withinWildcard(level.segment) {
            switch path.segments[level.segment] {
            case .key(let key):
                return notFound("no key '\(String(decoding: key, as: UTF8.self))' in the object", at: level.path)
            case .index(let index):
                return notFound("no element [\(index)] in the array", at: level.path)
            case .everyElement, .everyMember, .everyChild:
                break
            }
        }
        var proceed = true
        if level.segment == firstWildcard {
            // Nothing after this container can match, in this top-level value.
            exhausted = true
            if collects { proceed = toBuilder { $0.tokenEndArray() } }
        }
        return valueEnded() && proceed
    }

    /// The value at the current position has ended: the next element of an array, or the next top-level value.
    @discardableResult
    private func valueEnded() -> Bool {
        if let level = innermost {
            if !level.pointee.isObject { level.pointee.index += 1 }
            level.pointee.childMatches = false
        } else if !single {
            // With several values in the input, the path applies to the next one afresh.
            exhausted = false
        } else if path.isQuery && !path.isSingular && !collecting && state == .searching {
            // A query whose wildcard's container, or whose held node, never came selects nothing: an empty array.
            collecting = true
            handOverPath(path.jsonPath, index: nil)
            return toBuilder { $0.tokenStartArray() } && toBuilder { $0.tokenEndArray() }
        }
        return true
    }

    /// A match starts: its location, when the run records them (a query stage records its nodes' own).
    private func matchStarts() {
        guard run.recordsLocations else { return }
        var location: [JSONPath.Step] = []
        for level in levels.elements {
            location.append(level.isObject ? .key(String(decoding: level.key, as: UTF8.self)) : .index(level.index))
        }
        run.candidateLocation = location
        if path.tail.isEmpty { run.record(location) }
    }

    private func handOver() {
        state = .passing
        if let level = innermost, !level.pointee.isObject {
            if level.pointee.serial == pathHandedOver {
                // The next element of the array whose path the run has: no string is copied or replaced.
                run.handOverElement(level.pointee.index)
            } else {
                handOverPath(level.pointee.path, index: level.pointee.index)
                pathHandedOver = level.pointee.serial
            }
        } else {
            handOverPath(currentPath, index: nil)
        }
        owner?.withInstance { $0.pathFilterHandsOver(self) }
    }

    private func handOverPath(_ valuePath: String, index: Int?) {
        run.handOver(at: valuePath, index: index, outerDepth: depth)
        pathHandedOver = -1
    }

    private func expectedContainer(_ segment: Int) -> String {
        switch path.segments[segment] {
        case .key, .everyMember: "an object"
        case .index, .everyElement: "an array"
        case .everyChild: "an array or an object"
        }
    }

    /// The JSON path of the current position: the key read there, not the one the path wants (a skipped member is
    /// where it is). Inside a skipped value the filter keeps no keys or indices: the path is the skipped value's own.
    /// Also where yajl's errors before a match are placed.
    var currentPath: String {
        guard let level = innermost?.pointee else { return "$" }
        let base = level.path
        if !level.isObject { return base + "[\(level.index)]" }
        switch path.segments[level.segment] {
        case .key(let key) where level.childMatches: return base + "." + String(decoding: key, as: UTF8.self)
        default: return level.key.isEmpty ? base : base + "." + String(decoding: level.key, as: UTF8.self)
        }
    }

    private func notFound(_ detail: String, at position: String) -> Bool {
        run.fail(BuildFailure(kind: .pathNotFound, message: "path '\(path.text)' not found: \(detail)", path: position))
    }
}
