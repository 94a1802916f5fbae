import Foundation

/// Converts a property's value from and to a Foundation-style JSON value, as in HandyJSON. The JSON value handed to
/// `transformFromJSON` is built for this property only: a `String`, `Int`, `Double`, `Bool`, `NSNull`, `[Any]` or
/// `[String: Any]`.
public protocol TransformType {
    /// The property's type.
    associatedtype Object
    /// The type of the JSON value written for the property.
    associatedtype JSON

    /// The property's value for a JSON value (one of those above), or `nil` to keep the default.
    func transformFromJSON(_ value: Any?) -> Object?
    /// The JSON value to write for the property's value, or `nil` to leave the property out.
    func transformToJSON(_ value: Object?) -> JSON?
}

/// A custom scalar type that decodes itself from a Foundation-style JSON value and encodes itself as one.
public protocol HandyJSONCustomTransformable {
    static func _transform(from object: Any) -> Self?
    func _plainValue() -> Any?
}
