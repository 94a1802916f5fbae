import Foundation
import HandyStream

infix operator <-- : LogicalConjunctionPrecedence
infix operator <<< : AssignmentPrecedence
infix operator >>> : AssignmentPrecedence

/// Reads the property from `name`: a key, or a nested path (`"friend.name"`, `\.` for a literal dot).
public func <-- <T>(property: inout T, name: String) -> CustomMappingKeyValueTuple {
    property <-- [name]
}

/// Reads the property from the first of `names` present in the document.
public func <-- <T>(property: inout T, names: [String]) -> CustomMappingKeyValueTuple {
    (address(of: &property), MappingPropertyHandler(keys: names, type: T.self))
}

/// Reads and writes the property through `transformer`.
public func <-- <Transform: TransformType>(property: inout Transform.Object, transformer: Transform)
    -> CustomMappingKeyValueTuple
{
    (address(of: &property), .transform(keys: nil, transformer))
}

/// Reads and writes the property from `key` through `transformer`.
public func <-- <Transform: TransformType>(property: inout Transform.Object, transformer: (String?, Transform?))
    -> CustomMappingKeyValueTuple
{
    (address(of: &property), .transform(keys: transformer.0.map { [$0] }, transformer.1))
}

/// Reads and writes the property from the first of `keys` present through `transformer`.
public func <-- <Transform: TransformType>(property: inout Transform.Object, transformer: ([String], Transform?))
    -> CustomMappingKeyValueTuple
{
    (address(of: &property), .transform(keys: transformer.0, transformer.1))
}

/// The same for an optional property.
public func <-- <Transform: TransformType>(property: inout Transform.Object?, transformer: Transform)
    -> CustomMappingKeyValueTuple
{
    (address(of: &property), .optionalTransform(keys: nil, transformer))
}

/// The same for an optional property, with a key.
public func <-- <Transform: TransformType>(property: inout Transform.Object?, transformer: (String?, Transform?))
    -> CustomMappingKeyValueTuple
{
    (address(of: &property), .optionalTransform(keys: transformer.0.map { [$0] }, transformer.1))
}

/// The same for an optional property, with candidate keys.
public func <-- <Transform: TransformType>(property: inout Transform.Object?, transformer: ([String], Transform?))
    -> CustomMappingKeyValueTuple
{
    (address(of: &property), .optionalTransform(keys: transformer.0, transformer.1))
}

/// Declares one mapping.
public func <<< (mapper: HelpingMapper, mapping: CustomMappingKeyValueTuple) {
    mapper.add(mapping)
}

/// Declares several mappings.
public func <<< (mapper: HelpingMapper, mappings: [CustomMappingKeyValueTuple]) {
    mappings.forEach(mapper.add)
}

/// Leaves the property out of decoding and encoding.
public func >>> <T>(mapper: HelpingMapper, property: inout T) {
    mapper.exclude(address: address(of: &property), T.self)
}
