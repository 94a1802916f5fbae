import Foundation

/// Writes Foundation-style values and whatever else an `Any` holds: models through their codecs, other structs and
/// classes from their stored properties (as HandyJSON did with reflection).
enum AnyWriter {
    static func write(_ value: Any, to writer: inout JSONWriter) throws {
        switch value {
        case let optional as OptionalMarkerValue where type(of: value) is any OptionalMarker.Type:
            guard let wrapped = optional.wrappedValue else { return writer.null() }
            try write(wrapped, to: &writer)
        case is NSNull:
            writer.null()
        case let string as String:
            writer.string(string)
        case let flag as Bool where type(of: value) == Bool.self:
            writer.bool(flag)
        case let number as Int: writer.integer(number)
        case let number as Int64: writer.integer(number)
        case let number as UInt64: writer.integer(number)
        case let number as Int32: writer.integer(number)
        case let number as UInt: writer.integer(number)
        case let number as Double: try writer.double(number)
        case let number as Float: try writer.float(number)
        case let number as any BinaryInteger: writer.numberText("\(number)")
        case let number as Decimal:
            if number.isNaN { try writer.double(.nan) } else { writer.numberText(number.description) }
        case let number as NSNumber:
            try NSNumberConversion.write(number, to: &writer)
        case let string as NSString:
            writer.string(String(string))
        case let dictionary as [String: Any]:
            try writer.beginObject()
            let keys = writer.options.sortedKeys ? dictionary.keys.sorted() : Array(dictionary.keys)
            for key in keys {
                writer.key(key)
                try write(dictionary[key]!, to: &writer)
            }
            writer.endObject()
        case let array as [Any]:
            try writer.beginArray()
            for element in array {
                writer.element()
                try write(element, to: &writer)
            }
            writer.endArray()
        case let model as any HandyJSON:
            try writeModel(model, to: &writer)
        case let custom as any HandyJSONCustomTransformable:
            guard let plain = custom._plainValue() else { return writer.null() }
            try write(plain, to: &writer)
        case let enumValue as any HandyJSONEnum:
            try write(enumValue.rawValue, to: &writer)
        default:
            try writeReflected(value, to: &writer)
        }
    }

    private static func writeModel<Model: HandyJSON>(_ model: Model, to writer: inout JSONWriter) throws {
        guard let codec = TypeRegistry.codec(for: Model.self).codec else {
            return try writeReflected(model, to: &writer)
        }
        try withUnsafePointer(to: model) { try codec.write(UnsafeRawPointer($0), to: &writer) }
    }

    /// A value of no known kind: an object of its stored properties (a struct or class), or its description.
    private static func writeReflected(_ value: Any, to writer: inout JSONWriter) throws {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .struct || mirror.displayStyle == .class || mirror.displayStyle == .tuple else {
            return writer.string(String(describing: value))
        }
        try writer.beginObject()
        var superclass: Mirror? = mirror
        var members: [(String, Any)] = []
        while let current = superclass {
            members.insert(contentsOf: current.children.enumerated().map { ($1.label ?? ".\($0)", $1.value) }, at: 0)
            superclass = current.superclassMirror
        }
        if writer.options.sortedKeys { members.sort { $0.0 < $1.0 } }
        for (label, member) in members {
            if writer.options.nilEncoding == .omit, let optional = member as? OptionalMarkerValue,
                type(of: member) is any OptionalMarker.Type, optional.wrappedValue == nil
            {
                continue
            }
            writer.key(label)
            try write(member, to: &writer)
        }
        writer.endObject()
    }
}
