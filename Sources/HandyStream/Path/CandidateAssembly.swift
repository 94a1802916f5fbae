/// A candidate of a ``HeldQueryStage`` being put together as a `JSONValue` from its events. A struct behind one stored
/// property, so that each event is one access to the stage rather than one per field.
struct CandidateAssembly {
    /// What an event did: nothing to do yet, the candidate is complete, or it nests too deep.
    enum Step {
        case more
        case done(JSONValue)
        case tooDeep
    }

    /// An open container: whether it is an object, and where its children start in ``values`` (its members' keys in
    /// ``keys``).
    private struct Open {
        var isObject: Bool
        var start: Int
        var keyStart: Int
        /// A member read only by `length`: its children are held as `null`, its members' keys as "".
        var counts = false
    }
    /// The open containers, outermost first.
    private var open: [Open] = []
    /// The completed children of the open containers, outermost first: one array for all, so that a value costs one
    /// append, not a copy of its container's array.
    private var values: [JSONValue] = []
    /// The keys of the objects' members in ``values``, in order.
    private var keys: [String] = []
    /// The only members kept of the objects `projectionDepth` deep (1: the candidate's own); the rest are skipped.
    private let readMembers: [[UInt8]]?
    /// Of those, the members read only by `length`.
    private let countedMembers: [[UInt8]]
    private let projectionDepth: Int
    /// An array candidate is held as its last elements, at most twice this many (or 16) at once.
    private let keepsLast: Int?
    /// Inside a skipped member's value: the containers open in it.
    private var skipping = 0
    /// A skipped member's value is next.
    private var skipsNext = false
    /// A counted member's value is next.
    private var countsNext = false
    /// The most children the candidate held at once.
    private(set) var peak = 0
    /// The elements dropped from the front of an array candidate held by its end.
    private(set) var dropped = 0

    init(readMembers: [[UInt8]]?, countedMembers: [[UInt8]], projectionDepth: Int, keepsLast: Int?) {
        self.readMembers = readMembers
        self.countedMembers = countedMembers
        self.projectionDepth = projectionDepth
        self.keepsLast = keepsLast
    }

    var isEmpty: Bool { open.isEmpty }

    mutating func scalar(_ make: () -> JSONValue) -> Step {
        if skipping > 0 { return .more }
        if skipsNext {
            skipsNext = false
            return .more
        }
        countsNext = false
        if open.last?.counts == true { return add(.null) }
        return add(make())
    }

    mutating func key(_ bytes: UnsafeRawBufferPointer) {
        guard skipping == 0 else { return }
        if open.count == projectionDepth, let readMembers {
            guard readMembers.contains(where: { $0.elementsEqual(bytes) }) else {
                skipsNext = true
                return
            }
            countsNext = countedMembers.contains { $0.elementsEqual(bytes) }
        }
        keys.append(open.last?.counts == true ? "" : String(decoding: bytes, as: UTF8.self))
    }

    /// A container starts, `allowance` the most that may be open.
    mutating func start(isObject: Bool, allowance: Int) -> Step {
        guard open.count + skipping < allowance else { return .tooDeep }
        // A counted member's child is skipped, then held as `null`.
        if skipping > 0 || skipsNext || open.last?.counts == true {
            skipsNext = false
            skipping += 1
            return .more
        }
        if open.isEmpty { dropped = 0 }
        open.append(Open(isObject: isObject, start: values.count, keyStart: keys.count, counts: countsNext))
        countsNext = false
        return .more
    }

    mutating func end() -> Step {
        if skipping > 0 {
            skipping -= 1
            return skipping == 0 && open.last?.counts == true ? add(.null) : .more
        }
        guard let container = open.popLast() else { return .more }
        let value: JSONValue
        if container.isObject {
            let members = zip(keys[container.keyStart...], values[container.start...])
            value = .object(members.map { JSONValue.Member(key: $0, value: $1) })
            keys.removeSubrange(container.keyStart...)
        } else {
            value = .array(Array(values[container.start...]))
        }
        values.removeSubrange(container.start...)
        return add(value)
    }

    /// A completed value: into the container it sits in, or, if it is the whole candidate, done.
    private mutating func add(_ value: JSONValue) -> Step {
        guard open.count > 0 else { return .done(value) }
        values.append(value)
        if open.count == 1 {
            // Dropped in batches, so that each element is moved a constant number of times.
            if let keep = keepsLast, !open[0].isObject, values.count >= max(2 * keep, 16) {
                dropped += values.count - keep
                values.removeFirst(values.count - keep)
            }
            peak = max(peak, values.count)
        }
        return .more
    }
}
