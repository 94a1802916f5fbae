import Foundation

/// The second event source: Foundation-style values replayed as the events yajl would report for the same JSON, so that
/// HandyJSON's "mapping from a dictionary" follows the rules of text. Another value (a struct, a `Date`) is taken as it
/// is where the property has its type, else stands for its Foundation-style value (``ModelEncoder``'s) or `null`.
enum ObjectEvents {
    /// Sends `value`'s events to `sink`; returns `false` when the sink stopped. Containers are walked with an explicit
    /// stack, not recursion, so that the builder's depth cap stops a deep value as it stops deep text.
    static func emit(_ value: Any, to sink: TokenSink) -> Bool {
        enum Open {
            case object([(key: String, value: Any)], next: Int)
            case array([Any], next: Int)
        }
        var stack: [Open] = []
        var pending: Any? = value
        // A value of another kind is replaced by its Foundation-style value, once: what that holds is plain.
        var pendingIsConverted = false
        while true {
            if let value = pending {
                pending = nil
                switch shape(of: value) {
                case .object(let members):
                    guard sink.tokenStartMap() else { return false }
                    stack.append(.object(members, next: 0))
                case .array(let elements):
                    guard sink.tokenStartArray() else { return false }
                    stack.append(.array(elements, next: 0))
                case .scalar(let scalar):
                    if let proceed = emitScalar(scalar, to: sink) {
                        guard proceed else { return false }
                    } else if !pendingIsConverted, let proceed = sink.tokenReady(scalar) {
                        guard proceed else { return false }
                    } else if !pendingIsConverted, let plain = try? ModelEncoder().foundationValue(scalar) {
                        // Otherwise the events of what it encodes to, without writing text and reading it back.
                        pending = plain
                        pendingIsConverted = true
                        continue
                    } else {
                        guard sink.tokenNull() else { return false }
                    }
                }
                pendingIsConverted = false
            }
            guard let top = stack.popLast() else { return true }
            switch top {
            case .object(let members, let next):
                guard next < members.count else {
                    guard sink.tokenEndMap() else { return false }
                    continue
                }
                var key = members[next].key
                guard key.withUTF8({ sink.tokenKey(UnsafeRawBufferPointer($0)) }) else { return false }
                stack.append(.object(members, next: next + 1))
                pending = members[next].value
            case .array(let elements, let next):
                guard next < elements.count else {
                    guard sink.tokenEndArray() else { return false }
                    continue
                }
                stack.append(.array(elements, next: next + 1))
                pending = elements[next]
            }
        }
    }

    private enum Shape {
        case object([(key: String, value: Any)])
        case array([Any])
        case scalar(Any)
    }

    /// What `value` is: an object, an array (Swift's or Foundation's), or a scalar; optionals are looked into.
    private static func shape(of value: Any) -> Shape {
        var value = value
        while let optional = value as? OptionalMarkerValue {
            guard let wrapped = optional.wrappedValue else { return .scalar(NSNull()) }
            value = wrapped
        }
        switch value {
        case let dictionary as [String: Any]:
            return .object(dictionary.map { (key: $0.key, value: $0.value) })
        case let array as [Any]:
            return .array(array)
        case _ where type(of: value) is NSDictionary.Type:
            return .object((value as! NSDictionary).map { (key: "\($0.key)", value: $0.value) })
        case _ where type(of: value) is NSArray.Type:
            return .array((value as! NSArray).map { $0 })
        default:
            return .scalar(value)
        }
    }

    /// A scalar's events, and whether to go on; `nil` for a value that is no string, number, Boolean or null.
    private static func emitScalar(_ value: Any, to sink: TokenSink) -> Bool? {
        switch value {
        case let string as String:
            var string = string
            return string.withUTF8 { sink.tokenString(UnsafeRawBufferPointer($0)) }
        case let flag as Bool where type(of: value) == Bool.self:
            return sink.tokenBool(flag)
        case _ where type(of: value) is NSNumber.Type:
            let number = value as! NSNumber
            // JSONSerialization's values first: an NSNumber bridges to Swift's numbers (true as 1.0, 123 as 123.0).
            if number.isBoolean { return sink.tokenBool(number.boolValue) }
            guard var text = number.jsonText else { return sink.tokenNull() }
            return text.withUTF8 { sink.tokenNumber(UnsafeRawBufferPointer($0)) }
        case is NSNull:
            return sink.tokenNull()
        default:
            guard var number = numberText(value) else { return nil }
            return number.withUTF8 { sink.tokenNumber(UnsafeRawBufferPointer($0)) }
        }
    }

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

    /// The number as JSON text (floating point in the shortest form that reads back the same); `nil` if not finite.
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
