import Foundation

// Lenient mode never changes what `JSONDecoder` decodes; it only rescues what strict decoding refuses, at the
// innermost value that can absorb the failure. A value is decoded strictly first; when it throws, the error's coding
// path names the place, and the value is decoded again with that place *rescued*, for each failing place in turn
// (a place that can't be rescued fails the value, and its parent rescues it one level up):
//
//     Root.init(from:) throws at  items · Index 3 · price          (strict: what JSONDecoder throws)
//     Root again, the place [items, Index 3, price] rescued:
//         the call at [items] decodes [Item] in rescue mode, routing [Index 3, price] to element 3,
//         element 3's call at [price] reads the value strictly, then converts it ("12.5" → 12.5),
//         then falls back to a default (the property's value in `init()`, a declared default, …)
//
// A call off the way to a rescued place runs strictly, so a `try?` in a hand-written `init(from:)` sees the errors
// `JSONDecoder` gives. Collections this library decodes itself have no `try?` inside, so on a rescue route all their
// elements are decoded in rescue mode. A type remembers its rescued places for the run, so elements sharing one bad
// field cost two passes, not one each.

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

/// The places inside a value to rescue, or every place (a value made from nothing).
struct RescueRequest {
    var places: [RescuePath]
    var everything = false

    static let everywhere = RescueRequest(places: [], everything: true)

    func inside(_ step: RescueStep) -> RescueRequest {
        if everything || places.isEmpty { return self }
        var inner: [RescuePath] = []
        for place in places where place.first == step && place.count > 1 { inner.append(Array(place.dropFirst())) }
        return RescueRequest(places: inner)
    }
}

/// The rescue state of one value whose `init(from:)` runs in rescue mode, as a container at ``path`` inside that
/// value sees it.
final class ContainerRescue {
    let places: [RescuePath]
    let everything: Bool
    /// What `init()` gives the value's properties, for a type that has one.
    let defaults: PropertyDefaults?
    let path: RescuePath

    init(places: [RescuePath], everything: Bool, defaults: PropertyDefaults?, path: RescuePath = []) {
        self.places = places
        self.everything = everything
        self.defaults = defaults
        self.path = path
    }

    /// `nil` when a call at `step` (at the container itself for `nil`) runs strictly, with no rescued place at or
    /// below it; else the places below it.
    func route(_ step: RescueStep?) -> RescueRequest? {
        if everything { return .everywhere }
        let here = step.map { path + [$0] } ?? path
        var inner: [RescuePath] = []
        var hit = false
        for place in places where place.count >= here.count && place.starts(with: here) {
            hit = true
            if place.count > here.count { inner.append(Array(place.dropFirst(here.count))) }
        }
        return hit ? RescueRequest(places: inner) : nil
    }

    /// The rescue of a container nested at `step`.
    func inner(_ step: RescueStep) -> ContainerRescue {
        ContainerRescue(places: places, everything: everything, defaults: defaults, path: path + [step])
    }
}

/// A `DecodingError`, or a number that doesn't fit; a depth or stack failure is never rescued.
protocol RescuableFailure: Error {
    /// A missing key's path includes the key.
    var failurePath: [any CodingKey] { get }
    /// Without the final period, for diagnostics.
    var summary: String { get }
}

extension RescuableFailure {
    /// `nil` when the failure is not inside the value at `depth`.
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

/// A number that doesn't fit (`300` as a `UInt8`): `dataCorrupted` at the empty path, as `JSONDecoder` ends the
/// decode, but keeping the real path for lenient mode and the error's location.
struct NumberNotRepresentable: RescuableFailure, CustomStringConvertible {
    var codingPath: [any CodingKey]
    var text: String
    var failurePath: [any CodingKey] { codingPath }
    var summary: String { "Number \(text) is not representable in Swift" }
    var description: String { summary + "." }

    var decodingError: DecodingError {
        .dataCorrupted(
            .init(codingPath: [], debugDescription: "The given data was not valid JSON.", underlyingError: self))
    }
}
