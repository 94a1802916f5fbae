import Foundation

// Lenient mode for `Decodable` types never changes what `JSONDecoder` decodes; it only rescues what strict decoding
// refuses, at the innermost value that can absorb the failure.
//
// So a value is always decoded strictly first. When its `init(from:)` throws a `DecodingError`, the error's coding
// path says exactly where strict decoding failed; the value is decoded again with that place *rescued*, and again for
// each further place that fails, until it decodes or a place can't be rescued (then the value itself fails, and its
// parent rescues it one level up):
//
//     Root.init(from:) throws at  items · Index 3 · price          (strict: what JSONDecoder throws)
//     Root again, the place [items, Index 3, price] rescued:
//         the call at [items] decodes [Item] in rescue mode, routing [Index 3, price] to element 3,
//         element 3's call at [price] reads the value strictly, then converts it ("12.5" → 12.5),
//         then falls back to a default (the property's value in `init()`, a declared default, …)
//
// A call that is not on the way to a rescued place runs strictly, so a `try?` in a hand-written `init(from:)` sees
// exactly the errors it sees under `JSONDecoder`. Containers this library decodes itself (`[T]`, `[String: T]`,
// `Set<T>`, `[Int: T]`, `T?`) have no `try?` inside, so once one is on a rescue route all its elements are decoded in
// rescue mode (an element that can't be rescued is dropped, or `nil` in `[T?]`). A type remembers, for the rest of
// the run, the places that needed rescue, so the next value of that type met in rescue mode starts with them: an
// array of ten thousand elements with the same bad field costs two passes, not ten thousand.

/// One step of a coding path, as a rescue place names it.
enum RescueStep: Hashable {
    case key(String)
    case index(Int)

    init(_ key: any CodingKey) {
        if let index = key as? IndexKey, let value = index.intValue {
            self = .index(value)
        } else {
            self = .key(key.stringValue)
        }
    }
}

/// A coding path relative to the value whose `init(from:)` is running.
typealias RescuePath = [RescueStep]

/// How a value is decoded in rescue mode: the places inside it to rescue (relative to it), or every place (a value
/// made from nothing, where every key is missing).
struct RescueRequest {
    var places: [RescuePath]
    var everything = false

    static let none = RescueRequest(places: [])
    static let everywhere = RescueRequest(places: [], everything: true)

    /// The places inside the element or member `step`, for a container this library decodes itself.
    func inside(_ step: RescueStep) -> RescueRequest {
        if everything || places.isEmpty { return self }
        var inner: [RescuePath] = []
        for place in places where place.first == step && place.count > 1 { inner.append(Array(place.dropFirst())) }
        return RescueRequest(places: inner)
    }
}

/// The rescue state of one value whose `init(from:)` runs in rescue mode, shared by the containers it makes.
final class RescueScope {
    let places: [RescuePath]
    let everything: Bool
    /// For a type that can be made empty, what `init()` gives its properties.
    let defaults: PropertyDefaults?

    init(places: [RescuePath], everything: Bool, defaults: PropertyDefaults?) {
        self.places = places
        self.everything = everything
        self.defaults = defaults
    }

    /// What a call at `path` does: `nil` when it runs strictly, else the request for its value (the places below
    /// it). A call is rescued when a rescued place is at it or below it.
    func route(_ path: RescuePath) -> RescueRequest? {
        if everything { return .everywhere }
        var inner: [RescuePath] = []
        var hit = false
        for place in places where place.count >= path.count && place.starts(with: path) {
            hit = true
            if place.count > path.count { inner.append(Array(place.dropFirst(path.count))) }
        }
        return hit ? RescueRequest(places: inner) : nil
    }
}

/// A container's place in a value decoded in rescue mode: the value's scope and the container's path inside it.
final class ContainerRescue {
    let scope: RescueScope
    let path: RescuePath

    init(scope: RescueScope, path: RescuePath) {
        self.scope = scope
        self.path = path
    }

    func route(_ step: RescueStep?) -> RescueRequest? {
        guard let step else { return scope.route(path) }
        return scope.route(path + [step])
    }
}

/// A failure that lenient mode may rescue: a `DecodingError`, or a number that doesn't fit (which `JSONDecoder` throws
/// as a JSON error, not a `DecodingError`). A depth or stack failure is neither, and is never rescued.
protocol RescuableFailure: Error {
    /// Where the failure is, as a coding path; a missing key's path includes the key.
    var failurePath: [any CodingKey] { get }
    /// The failure's sentence without its final period, for diagnostics.
    var summary: String { get }
}

extension RescuableFailure {
    /// The failure's place relative to a value at depth `depth`, or `nil` when it is not inside that value.
    func place(below depth: Int) -> RescuePath? {
        let path = failurePath
        guard path.count > depth else { return nil }
        return path.dropFirst(depth).map(RescueStep.init)
    }
}

extension DecodingError: RescuableFailure {
    var failurePath: [any CodingKey] {
        switch self {
        case .keyNotFound(let key, let context): context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath
        @unknown default: []
        }
    }
}

/// A number that doesn't fit the type asked for (`300` as a `UInt8`, `1.5` as an `Int`, `1e400`). `JSONDecoder`
/// throws it as a JSON error, which a `try?` in `init(from:)` catches and which, if nothing does, ends the decode as
/// `dataCorrupted` at the empty coding path ("The given data was not valid JSON."); it is thrown the same way here,
/// and keeps its real coding path for lenient mode and for the error's location.
struct NumberNotRepresentable: RescuableFailure, CustomStringConvertible {
    var codingPath: [any CodingKey]
    var text: String
    var failurePath: [any CodingKey] { codingPath }
    var summary: String { "Number \(text) is not representable in Swift" }
    var description: String { summary + "." }

    /// What `JSONDecoder` throws for it at the top.
    var decodingError: DecodingError {
        .dataCorrupted(
            .init(codingPath: [], debugDescription: "The given data was not valid JSON.", underlyingError: self))
    }
}
