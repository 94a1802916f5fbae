/// A tail that starts with a `..` segment of names and indices from the start (`$..author`, `$.items..['id', 0]`),
/// followed as the candidate's events arrive: only the matches are held, never the rest of the candidate.
///
/// The RFC's order puts a node's own matches before those of its descendants, and a stream meets them the other way
/// round when a member comes late (`{"x": {"a": 1}, "a": 2}` gives 2, then 1). So each open container keeps its own
/// matches and those found below it until every selector is settled (met, or known absent at its end); from then on,
/// if every container around it is settled too, matches go out as they complete. An array is settled at once for
/// names, an object for indices: `$.items..id` sends each item's `id` as soon as it ends, while `$..id` holds them
/// until the document shows its own `id` or ends.
final class DescendantStage: QueryStage {
    /// A selected node, and where it is when locations are recorded.
    private typealias Match = JSONPath.Node

    private struct Frame {
        var isObject: Bool
        /// Arrays: the index of the element being read.
        var index = -1
        /// Objects, while held or when locations are recorded: the key of the member being read.
        var key = ""
        /// The matches of this container's selectors, in selector order (`nil`: not met, or absent); empty until the
        /// first is met, and again once they have gone out.
        var own: [Match?] = []
        /// The selectors that apply to this kind of container and are not yet met.
        var unsettled = 0
        /// Matches found below, in order, once their containers ended, not yet sent.
        var below: [Match] = []
        /// Every container around it, and its own selectors, are settled: its matches go out as they complete.
        var flowing = false
        /// The container's value so far, when it is itself a match or inside one.
        var contents: JSONValue?
        /// The selectors the child being read fills.
        var childFills: [Int] = []

        /// Whether `selector` (one that applies to this kind of container) is yet to be met: once flowing, every one
        /// is settled, and before that a met one holds its match.
        func awaits(_ selector: Int) -> Bool { !flowing && (own.isEmpty || own[selector] == nil) }
    }

    /// Names (`.key`) and indices from the start only.
    private let wanted: [DesignatedPath.Segment]
    /// How many of them are names.
    private let names: Int
    /// The segments after the `..` one, applied to each match as it goes out.
    private let rest: [JSONPath.Segment]
    private var frames: [Frame] = []
    /// The candidate's location, when locations are recorded.
    private var base: [JSONPath.Step] = []
    /// Matches held (``Frame/own`` and ``Frame/below``), for ``QueryStage/peakHeld``.
    private var held = 0

    override init(path: DesignatedPath, next: Builder, run: DecodingRun, single: Bool) {
        wanted = path.tail[0].selectors.compactMap(DesignatedPath.step)
        assert(wanted.count == path.tail[0].selectors.count, "DescendantStage: a selector that is not a name or index")
        names = wanted.count { if case .key = $0 { true } else { false } }
        rest = Array(path.tail.dropFirst())
        super.init(path: path, next: next, run: run, single: single)
    }

    override var betweenCandidates: Bool { frames.isEmpty }

    /// The candidate is an array, just opened: names find nothing in it but in its elements, one after another.
    var opensArrayOfNames: Bool {
        frames.count == 1 && !frames[0].isObject && frames[0].index == -1 && held == 0 && names == wanted.count
    }

    // MARK: - Events

    override func tokenNull() -> Bool { scalar { .null } }
    override func tokenBool(_ value: Bool) -> Bool { scalar { .bool(value) } }
    override func tokenNumber(_ text: UnsafeRawBufferPointer) -> Bool {
        scalar { .number(String(decoding: text, as: UTF8.self)) }
    }
    override func tokenString(_ bytes: UnsafeRawBufferPointer) -> Bool {
        scalar { .string(String(decoding: bytes, as: UTF8.self)) }
    }

    override func tokenKey(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let last = frames.count - 1
        guard last >= 0, frames[last].isObject else { preconditionFailure("DescendantStage: a key outside an object") }
        frames[last].childFills.removeAll(keepingCapacity: true)
        for (selector, want) in wanted.enumerated() where frames[last].awaits(selector) {
            if case .key(let name) = want, name.elementsEqual(bytes) { frames[last].childFills.append(selector) }
        }
        if frames[last].contents != nil || run.recordsLocations {
            frames[last].key = String(decoding: bytes, as: UTF8.self)
        }
        return true
    }

    override func tokenStartMap() -> Bool { open(isObject: true) }
    override func tokenStartArray() -> Bool { open(isObject: false) }
    override func tokenEndMap() -> Bool { close() }
    override func tokenEndArray() -> Bool { close() }

    // MARK: - Values

    /// An array's next element starts: which selectors it fills.
    private func elementStarts() {
        let last = frames.count - 1
        guard last >= 0, !frames[last].isObject else { return }
        frames[last].index += 1
        frames[last].childFills.removeAll(keepingCapacity: true)
        for (selector, want) in wanted.enumerated() where frames[last].awaits(selector) {
            if case .index(let index) = want, index == frames[last].index { frames[last].childFills.append(selector) }
        }
    }

    /// Whether the value starting now is kept: a match, or inside one.
    private var childIsHeld: Bool {
        guard let frame = frames.last else { return false }
        return frame.contents != nil || !frame.childFills.isEmpty
    }

    private func scalar(_ make: () -> JSONValue) -> Bool {
        elementStarts()
        // A scalar candidate selects nothing below it.
        guard !frames.isEmpty else { return candidateDone() }
        guard childIsHeld else { return true }
        return childEnded(make(), below: [])
    }

    private func open(isObject: Bool) -> Bool {
        guard frames.count < run.depthAllowance else { return tooDeep() }
        elementStarts()
        let keepsValue = childIsHeld
        // A name can't be met in an array, nor an index in an object: those are settled from the start.
        var frame = Frame(isObject: isObject, unsettled: isObject ? names : wanted.count - names)
        if keepsValue { frame.contents = isObject ? .object([]) : .array([]) }
        if run.recordsLocations && frames.isEmpty { base = run.candidateLocation }
        frame.flowing = frame.unsettled == 0 && (frames.last?.flowing ?? true)
        frames.append(frame)
        return true
    }

    private func close() -> Bool {
        guard var frame = frames.popLast() else { return false }
        // What is not met by now is absent: the container's own matches are known.
        let value = frame.contents
        var out: [Match] = []
        if !frame.flowing { out = Self.takeHeld(&frame) }
        guard !frames.isEmpty else {
            // The candidate ended: all that is left goes out.
            return send(consume out) && candidateDone()
        }
        guard let value else { return pass(consume out) }
        return childEnded(value, below: out)
    }

    /// A held child of the innermost container ended: into the container's value, into the selectors it fills, and
    /// the matches found in it after them.
    private func childEnded(_ value: JSONValue, below: [Match]) -> Bool {
        let last = frames.count - 1
        switch frames[last].contents {
        case .array(var elements)?:
            frames[last].contents = nil
            elements.append(value)
            frames[last].contents = .array(elements)
        case .object(var members)?:
            frames[last].contents = nil
            members.append(JSONValue.Member(key: frames[last].key, value: value))
            frames[last].contents = .object(members)
        default:
            break
        }
        var location: [JSONPath.Step] = []
        if run.recordsLocations, !frames[last].childFills.isEmpty {
            // Each container's key or index is its open child's place, the last one's this child's.
            location = base + frames.map { $0.isObject ? .key($0.key) : .index($0.index) }
        }
        for selector in frames[last].childFills {
            if frames[last].own.isEmpty { frames[last].own = Array(repeating: nil, count: wanted.count) }
            frames[last].own[selector] = Match(location: location, value: value)
            frames[last].unsettled -= 1
            held += 1
        }
        frames[last].childFills.removeAll(keepingCapacity: true)
        peakHeld = max(peakHeld, held)
        guard pass(below) else { return false }
        if !frames[last].flowing && frames[last].unsettled == 0 && (last == 0 || frames[last - 1].flowing) {
            return startFlowing(last)
        }
        return true
    }

    /// Matches from a child that ended, into the innermost container: sent, if it flows, or kept in order.
    private func pass(_ matches: consuming [Match]) -> Bool {
        guard !matches.isEmpty else { return true }
        let last = frames.count - 1
        guard frames[last].flowing else {
            // Moved, not copied, when nothing is kept yet: `$..email` passes every item's up a level at a time.
            if frames[last].below.isEmpty { frames[last].below = matches } else { frames[last].below += matches }
            return true
        }
        return send(matches)
    }

    /// Matches out, in order, each value released once sent: all of `$..email`'s go at the document's end.
    private func send(_ matches: consuming [Match]) -> Bool {
        var matches = matches
        held -= matches.count
        for index in matches.indices {
            let match = matches[index]
            matches[index].value = .null
            guard emit(match.value, at: match.location, rest: rest) else { return false }
        }
        return true
    }

    /// A container's own matches, then those found below it, taken from it.
    private static func takeHeld(_ frame: inout Frame) -> [Match] {
        var out: [Match] = []
        swap(&out, &frame.below)
        if frame.own.contains(where: { $0 != nil }) { out = frame.own.compactMap { $0 } + out }
        frame.own = []
        return out
    }

    /// The innermost container, `level`, is settled and every one around it flows: what it kept goes out, and from
    /// now on its matches go out as they complete. (No container inside it is open: it settles only as a child ends.)
    private func startFlowing(_ level: Int) -> Bool {
        frames[level].flowing = true
        return send(Self.takeHeld(&frames[level]))
    }
}
