import Foundation

/// The second event source: Foundation-style values (`[String: Any]`, `[Any]`, `String`, numbers, `Bool`, `NSNull`)
/// replayed as the events yajl would report for the same JSON, so that HandyJSON's "mapping from a dictionary"
/// goes through the one builder and follows exactly the same rules as JSON text.
enum ObjectEvents {
    /// Sends `value`'s events to `sink`; returns `false` when the sink stopped.
    ///
    /// Recursion follows the nesting of values already in memory; the builder's depth cap stops it as it stops
    /// deep JSON text.
    static func emit(_ value: Any, to sink: TokenSink) -> Bool {
        switch value {
        case let dictionary as [String: Any]:
            guard sink.tokenStartMap() else { return false }
            for (key, member) in dictionary {
                var key = key
                guard key.withUTF8({ sink.tokenKey(UnsafeRawBufferPointer($0)) }), emit(member, to: sink) else {
                    return false
                }
            }
            return sink.tokenEndMap()
        case let array as [Any]:
            guard sink.tokenStartArray() else { return false }
            for element in array where !emit(element, to: sink) { return false }
            return sink.tokenEndArray()
        case let string as String:
            var string = string
            return string.withUTF8 { sink.tokenString(UnsafeRawBufferPointer($0)) }
        case let flag as Bool where type(of: value) == Bool.self:
            return sink.tokenBool(flag)
        case _ where type(of: value) is NSNumber.Type:
            let number = value as! NSNumber
            // JSONSerialization's values: checked before Swift's number types, which an NSNumber bridges to (true
            // would read as 1.0, 123 as 123.0).
            if number.isBoolean { return sink.tokenBool(number.boolValue) }
            guard var text = number.jsonText else { return sink.tokenNull() }
            return text.withUTF8 { sink.tokenNumber(UnsafeRawBufferPointer($0)) }
        case is NSNull:
            return sink.tokenNull()
        case let optional as OptionalMarkerValue:
            guard let wrapped = optional.wrappedValue else { return sink.tokenNull() }
            return emit(wrapped, to: sink)
        case _ where type(of: value) is NSDictionary.Type:
            var members: [String: Any] = [:]
            for (key, member) in value as! NSDictionary { members["\(key)"] = member }
            return emit(members, to: sink)
        case _ where type(of: value) is NSArray.Type:
            return emit((value as! NSArray).map { $0 } as [Any], to: sink)
        default:
            if var number = numberText(value) {
                return number.withUTF8 { sink.tokenNumber(UnsafeRawBufferPointer($0)) }
            }
            return emitOther(value, to: sink)
        }
    }

    /// A value of another kind: taken as it is where the property has its type (a model instance, as HandyJSON
    /// took it), otherwise written as JSON and read back, so that it follows the same rules as text.
    private static func emitOther(_ value: Any, to sink: TokenSink) -> Bool {
        if let proceed = sink.tokenReady(value) { return proceed }
        guard let json = try? ModelEncoder().encode(value) else { return sink.tokenNull() }
        let tokenizer = Tokenizer(sink: sink)
        let outcome = json.withUnsafeBytes { tokenizer.parse($0) }
        guard outcome == .needsMore else { return outcome != .stopped }
        return tokenizer.complete() != .stopped
    }

    /// The JSON text of a number value, or `nil` when `value` is not a finite number.
    private static func numberText(_ value: Any) -> String? {
        switch value {
        case let number as Double: number.isFinite ? "\(number)" : nil
        case let number as Float: number.isFinite ? "\(number)" : nil
        case let number as any BinaryInteger: "\(number)"
        case let number as Decimal: number.isFinite ? "\(number)" : nil
        case let number as NSNumber: number.jsonText
        default: nil
        }
    }
}

extension NSNumber {
    /// The class of Foundation's Boolean numbers (`JSONSerialization` makes `true` and `false` of it).
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// Whether the number is a Boolean (`true`/`false`), not an integer that happens to be 0 or 1.
    var isBoolean: Bool { ObjectIdentifier(type(of: self)) == Self.booleanClass }

    /// The number as JSON text: integers and decimals as they are, floating point in the shortest form that reads
    /// back the same (as a `Double` is written); `nil` for infinity and NaN.
    var jsonText: String? {
        if self is NSDecimalNumber { return stringValue == "NaN" ? nil : stringValue }
        switch UInt8(bitPattern: objCType.pointee) {
        case UInt8(ascii: "d"), UInt8(ascii: "f"):
            return doubleValue.isFinite ? "\(doubleValue)" : nil
        default:
            return stringValue
        }
    }
}

/// Lets a value of type `Any` that holds an `Optional` be looked into.
protocol OptionalMarkerValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalMarkerValue {
    var wrappedValue: Any? { self.map { $0 as Any } }
}
