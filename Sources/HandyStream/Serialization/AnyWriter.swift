import Foundation

/// Writes whatever an `Any` holds: Foundation values, types with codecs, and other structs and classes from their
/// stored properties, as HandyJSON did. Like the codecs, it opens a cursor for a container, never calling itself.
enum AnyWriter {
    /// Writes the `Any` at an address: the codec of the containers this opens.
    private static let codec = AnyCodec()

    static func write(_ value: Any, to run: inout EncodingRun) throws {
        guard let value = try plainValue(value, maximumSteps: run.options.maximumDepth) else {
            return run.writer.null()
        }
        // Classes first: casting a Swift array to a class would bridge it to an NSArray, and casting an NSNumber to
        // a Swift number would lose Booleans.
        if type(of: value) is AnyClass { return try writeObject(value as AnyObject, to: &run) }
        switch value {
        case let string as String:
            run.writer.string(string)
        case let flag as Bool where type(of: value) == Bool.self:
            run.writer.bool(flag)
        case let number as Int: run.writer.integer(number)
        case let number as Int64: run.writer.integer(number)
        case let number as UInt64: run.writer.integer(number)
        case let number as Int32: run.writer.integer(number)
        case let number as UInt: run.writer.integer(number)
        case let number as Double: try run.writer.floatingPoint(number)
        case let number as Float: try run.writer.floatingPoint(number)
        case let number as any BinaryInteger: run.writer.integer(number)
        case let number as Decimal: try run.writer.decimal(number)
        case let dictionary as [String: Any]:
            let sortedKeys = run.options.sortedKeys
            try run.open(MembersCursor.self, owner: codec, isObject: true) { MembersCursor(codec: codec) }
                .start(dictionary, sortedKeys: sortedKeys)
        case let array as [Any]:
            try openElements(array, codec, owner: codec, on: &run)
        case let enumValue as any HandyJSONEnum:
            try write(enumValue.rawValue, to: &run)
        default:
            if let codec = TypeRegistry.codec(for: type(of: value)).codec {
                return try run.hold(value, codec)
            }
            if let encodable = value as? any Encodable { return try run.writeEncodable(encodable) }
            try writeReflected(value, to: &run)
        }
    }

    private static func writeObject(_ object: AnyObject, to run: inout EncodingRun) throws {
        switch object {
        case is NSNull: run.writer.null()
        case let number as NSNumber: try run.writer.number(number)
        case let string as NSString: run.writer.string(String(string))
        case let array as NSArray: try write(array.map { $0 } as [Any], to: &run)
        case let dictionary as NSDictionary:
            var members: [String: Any] = [:]
            for (key, value) in dictionary { members["\(key)"] = value }
            try write(members, to: &run)
        default:
            if let codec = TypeRegistry.codec(for: type(of: object)).codec { return try run.hold(object, codec) }
            if let encodable = object as? any Encodable { return try run.writeEncodable(encodable) }
            try writeReflected(object, to: &run)
        }
    }

    /// Unwraps optionals and `HandyJSONCustomTransformable` values in a loop; a chain longer than the depth cap (a
    /// `_plainValue()` that returns itself) is an error.
    private static func plainValue(_ value: Any, maximumSteps: Int) throws -> Any? {
        var value = value
        var steps = 0
        while true {
            if let optional = value as? OptionalMarkerValue, StoredProperty.isOptional(type(of: value)) {
                guard let wrapped = optional.wrappedValue else { return nil }
                value = wrapped
            } else if let custom = value as? any HandyJSONCustomTransformable {
                guard let plain = custom._plainValue() else { return nil }
                steps += 1
                if steps > maximumSteps {
                    throw JSONEncodingError(
                        message: "\(type(of: custom))._plainValue() does not lead to a JSON "
                            + "value after \(maximumSteps) steps (it returns a value of type \(type(of: plain)))")
                }
                value = plain
            } else {
                return value
            }
        }
    }

    /// An object of a struct's or class's stored properties, else the value's description.
    private static func writeReflected(_ value: Any, to run: inout EncodingRun) throws {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .struct || mirror.displayStyle == .class || mirror.displayStyle == .tuple else {
            return run.writer.string(String(describing: value))
        }
        var superclass: Mirror? = mirror
        var members: [(String, Any)] = []
        while let current = superclass {
            members.insert(contentsOf: current.children.enumerated().map { ($1.label ?? ".\($0)", $1.value) }, at: 0)
            superclass = current.superclassMirror
        }
        if run.options.sortedKeys { members.sort { $0.0 < $1.0 } }
        if run.options.nilEncoding == .omit {
            members.removeAll { member in
                guard let optional = member.1 as? OptionalMarkerValue, StoredProperty.isOptional(type(of: member.1))
                else { return false }
                return optional.wrappedValue == nil
            }
        }
        try run.open(MembersCursor.self, owner: codec, isObject: true) { MembersCursor(codec: codec) }
            .start(keys: members.map(\.0), values: members.map(\.1))
    }
}
