import Foundation
import HandyStream

// HandyJSON's deserialization calls, source compatible: malformed JSON, a missing path or a value of the wrong shape
// give `nil`; values that don't fit a property leave its default.

extension HandyJSON {
    /// Decodes a model from JSON text, or from the object at `designatedPath` (`"data.cat"`) in it.
    public static func deserialize(from json: String?, designatedPath: String? = nil) -> Self? {
        guard var json else { return nil }
        return json.withUTF8 { HandyJSONDecoding.model(Self.self, UnsafeRawBufferPointer($0), designatedPath) }
    }

    /// Decodes a model from a dictionary (as `JSONSerialization` makes them), or from the object at `designatedPath`.
    public static func deserialize(from dict: [String: Any]?, designatedPath: String? = nil) -> Self? {
        guard let dict else { return nil }
        return try? Decoding.decode(
            Self.self, fromObject: dict, path: designatedPath ?? "", options: HandyJSONDecoding.options)
    }

    /// Decodes a model from an `NSDictionary` (HandyJSON's form of the dictionary call).
    public static func deserialize(from dict: NSDictionary?, designatedPath: String? = nil) -> Self? {
        guard let dict else { return nil }
        return deserialize(from: HandyJSONDecoding.dictionary(dict), designatedPath: designatedPath)
    }
}

extension Array where Element: HandyJSON {
    /// Decodes an array of models from JSON text; an element that is not an object becomes `nil`.
    public static func deserialize(from json: String?, designatedPath: String? = nil) -> [Element?]? {
        guard var json else { return nil }
        return json.withUTF8 { HandyJSONDecoding.model([Element?].self, UnsafeRawBufferPointer($0), designatedPath) }
    }

    /// Decodes an array of models from an array of dictionaries.
    public static func deserialize(from array: [Any]?) -> [Element?]? {
        guard let array else { return nil }
        return try? Decoding.decode([Element?].self, fromObject: array, path: "", options: HandyJSONDecoding.options)
    }

    /// Decodes an array of models from an `NSArray` of dictionaries.
    public static func deserialize(from array: NSArray?) -> [Element?]? {
        guard let array else { return nil }
        return deserialize(from: array.map { $0 } as [Any])
    }
}

/// HandyJSON's class-based entry points.
public final class JSONDeserializer<T: HandyJSON> {
    /// Decodes a model from a dictionary, or from the object at `designatedPath` in it; `nil` when it can't.
    public static func deserializeFrom(dict: [String: Any]?, designatedPath: String? = nil) -> T? {
        T.deserialize(from: dict, designatedPath: designatedPath)
    }

    /// Decodes a model from an `NSDictionary`, or from the object at `designatedPath` in it; `nil` when it can't.
    public static func deserializeFrom(dict: NSDictionary?, designatedPath: String? = nil) -> T? {
        T.deserialize(from: dict, designatedPath: designatedPath)
    }

    /// Decodes a model from JSON text, or from the object at `designatedPath` in it; `nil` when it can't.
    public static func deserializeFrom(json: String?, designatedPath: String? = nil) -> T? {
        T.deserialize(from: json, designatedPath: designatedPath)
    }

    /// Decodes an array of models from JSON text; an element that is not an object becomes `nil`.
    public static func deserializeModelArrayFrom(json: String?, designatedPath: String? = nil) -> [T?]? {
        [T].deserialize(from: json, designatedPath: designatedPath)
    }

    /// Decodes an array of models from an array of dictionaries; an element that is not one becomes `nil`.
    public static func deserializeModelArrayFrom(array: [Any]?) -> [T?]? {
        [T].deserialize(from: array)
    }

    /// Decodes the dictionary's values into an existing model: properties it doesn't mention keep their values.
    /// All or nothing: when the input can't be read (too deep, the path isn't there), the model is left as it was.
    public static func update(object: inout T, from dict: [String: Any]?, designatedPath: String? = nil) {
        guard let dict else { return }
        let options = HandyJSONDecoding.options
        // A class is filled in place: check the whole input first, so that nothing is written when it fails.
        if T.self is AnyClass,
            (try? Decoding.decode(Validation.self, fromObject: dict, path: "", options: options)) == nil
        {
            return
        }
        if let updated = try? Decoding.decode(
            T.self, fromObject: dict, path: designatedPath ?? "", options: options, seed: object)
        {
            object = updated
        }
    }

    /// Decodes the JSON text's values into an existing model: properties it doesn't mention keep their values. All or
    /// nothing: on malformed or cut text (anywhere, as HandyJSON read it whole) or a missing path, the model is
    /// unchanged.
    public static func update(object: inout T, from json: String?, designatedPath: String? = nil) {
        guard var json else { return }
        let seed = object
        let updated = json.withUTF8 { bytes -> T? in
            let input = UnsafeRawBufferPointer(bytes)
            // A class is filled in place: check the whole document first, so that nothing is written when it fails.
            if T.self is AnyClass, HandyJSONDecoding.model(Validation.self, input, nil) == nil { return nil }
            return HandyJSONDecoding.model(T.self, input, designatedPath, seed: seed)
        }
        if let updated { object = updated }
    }
}

enum HandyJSONDecoding {
    /// Lenient and quiet, with the configured key strategy (`.caseInsensitive` per `deserializeOptions`, as HandyJSON).
    static var options: DecodingOptions {
        let strategy =
            HandyJSONConfiguration.deserializeOptions.contains(.caseInsensitive)
            ? .caseInsensitive : HandyJSONConfiguration.keyDecodingStrategy
        return DecodingOptions(keyDecodingStrategy: strategy)
    }

    static func dictionary(_ dict: NSDictionary) -> [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in dict { result["\(key)"] = value }
        return result
    }

    static func model<T>(_ type: T.Type, _ input: UnsafeRawBufferPointer, _ path: String?, seed: Any? = nil) -> T? {
        (try? Decoding.decode(type, from: input, path: path ?? "", options: options, seed: seed)) ?? nil
    }
}
