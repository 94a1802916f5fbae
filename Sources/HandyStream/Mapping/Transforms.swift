import Foundation

/// Converts a property's value from and to a Foundation-style JSON value, as in HandyJSON. The JSON value handed to
/// `transformFromJSON` is built for this property only: a `String`, `Int`, `Double`, `Bool`, `NSNull`, `[Any]` or
/// `[String: Any]`.
public protocol TransformType {
    associatedtype Object
    associatedtype JSON

    func transformFromJSON(_ value: Any?) -> Object?
    func transformToJSON(_ value: Object?) -> JSON?
}

/// A transform made of two closures.
///
///     mapper <<< self.parent <-- TransformOf<(String, String), String>(
///         fromJSON: { text in text.map { ($0.components(separatedBy: "/")[0], $0.components(separatedBy: "/")[1]) } },
///         toJSON: { pair in pair.map { "\($0.0)/\($0.1)" } })
open class TransformOf<ObjectType, JSONType>: TransformType {
    public typealias Object = ObjectType
    public typealias JSON = JSONType

    private let fromJSON: (JSONType?) -> ObjectType?
    private let toJSON: (ObjectType?) -> JSONType?

    public init(fromJSON: @escaping (JSONType?) -> ObjectType?, toJSON: @escaping (ObjectType?) -> JSONType?) {
        self.fromJSON = fromJSON
        self.toJSON = toJSON
    }

    open func transformFromJSON(_ value: Any?) -> ObjectType? { fromJSON(value as? JSONType) }
    open func transformToJSON(_ value: ObjectType?) -> JSONType? { toJSON(value) }
}

/// Seconds since 1970 as a number (or a string holding one) ⇄ `Date`.
open class DateTransform: TransformType {
    public typealias Object = Date
    public typealias JSON = Double

    public init() {}

    open func transformFromJSON(_ value: Any?) -> Date? {
        switch value {
        case let seconds as Double: Date(timeIntervalSince1970: seconds)
        case let seconds as Int: Date(timeIntervalSince1970: Double(seconds))
        case let text as String: Double(text).map(Date.init(timeIntervalSince1970:))
        default: nil
        }
    }

    open func transformToJSON(_ value: Date?) -> Double? { value?.timeIntervalSince1970 }
}

/// A string in a `DateFormatter`'s format ⇄ `Date`.
open class DateFormatterTransform: TransformType {
    public typealias Object = Date
    public typealias JSON = String

    public let dateFormatter: DateFormatter

    public init(dateFormatter: DateFormatter) {
        self.dateFormatter = dateFormatter
    }

    /// A formatter for `format` in UTC with the POSIX locale: fixed formats read the same everywhere.
    static func posixFormatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = format
        return formatter
    }

    open func transformFromJSON(_ value: Any?) -> Date? { (value as? String).flatMap(dateFormatter.date(from:)) }
    open func transformToJSON(_ value: Date?) -> String? { value.map(dateFormatter.string(from:)) }
}

/// ISO 8601 (`2016-06-01T12:00:00Z`) ⇄ `Date`.
open class ISO8601DateTransform: DateFormatterTransform, @unchecked Sendable {
    public init() {
        super.init(dateFormatter: Self.posixFormatter("yyyy-MM-dd'T'HH:mm:ssZZZZZ"))
    }
}

/// A string in a given date format (in UTC, POSIX locale) ⇄ `Date`.
open class CustomDateFormatTransform: DateFormatterTransform, @unchecked Sendable {
    public init(formatString: String) {
        super.init(dateFormatter: Self.posixFormatter(formatString))
    }
}

/// A string ⇄ `URL`; with `shouldEncodeURLString`, characters not allowed in a URL are percent-encoded first.
open class URLTransform: TransformType {
    public typealias Object = URL
    public typealias JSON = String

    private let shouldEncodeURLString: Bool

    public init(shouldEncodeURLString: Bool = true) {
        self.shouldEncodeURLString = shouldEncodeURLString
    }

    open func transformFromJSON(_ value: Any?) -> URL? {
        guard let text = value as? String else { return nil }
        guard shouldEncodeURLString else { return URL(string: text) }
        return text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed).flatMap(URL.init(string:))
    }

    open func transformToJSON(_ value: URL?) -> String? { value?.absoluteString }
}

/// Base64 text ⇄ `Data`.
open class DataTransform: TransformType {
    public typealias Object = Data
    public typealias JSON = String

    public init() {}

    open func transformFromJSON(_ value: Any?) -> Data? { (value as? String).flatMap { Data(base64Encoded: $0) } }
    open func transformToJSON(_ value: Data?) -> String? { value?.base64EncodedString() }
}

/// A raw value ⇄ a `RawRepresentable` enum, for enums that are not `HandyJSONEnum`.
open class EnumTransform<T: RawRepresentable>: TransformType {
    public typealias Object = T
    public typealias JSON = T.RawValue

    public init() {}

    open func transformFromJSON(_ value: Any?) -> T? { (value as? T.RawValue).flatMap(T.init(rawValue:)) }
    open func transformToJSON(_ value: T?) -> T.RawValue? { value?.rawValue }
}

/// A number or a string holding one ⇄ `NSDecimalNumber`.
open class NSDecimalNumberTransform: TransformType {
    public typealias Object = NSDecimalNumber
    public typealias JSON = String

    public init() {}

    open func transformFromJSON(_ value: Any?) -> NSDecimalNumber? {
        switch value {
        case let text as String:
            let number = NSDecimalNumber(string: text, locale: nil)
            return number == NSDecimalNumber.notANumber ? nil : number
        case let number as Int: return NSDecimalNumber(value: number)
        case let number as Double: return NSDecimalNumber(string: "\(number)", locale: nil)
        default: return nil
        }
    }

    open func transformToJSON(_ value: NSDecimalNumber?) -> String? { value?.description }
}

/// An RGB(A) color with components from 0 to 1: the platform-neutral value `HexColorTransform` produces, since
/// Linux has no UIColor or NSColor.
public struct HexColor: Equatable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}

/// `"#RRGGBB"`, `"#RRGGBBAA"`, `"#RGB"`, `"#RGBA"` (the `#` optional) ⇄ ``HexColor``.
open class HexColorTransform: TransformType {
    public typealias Object = HexColor
    public typealias JSON = String

    private let prefixToJSON: Bool
    private let alphaToJSON: Bool

    public init(prefixToJSON: Bool = false, alphaToJSON: Bool = false) {
        self.prefixToJSON = prefixToJSON
        self.alphaToJSON = alphaToJSON
    }

    open func transformFromJSON(_ value: Any?) -> HexColor? {
        guard var text = value as? String else { return nil }
        if text.hasPrefix("#") { text.removeFirst() }
        guard let bits = UInt64(text, radix: 16), text.allSatisfy(\.isHexDigit) else { return nil }
        func component(_ shift: UInt64, _ width: UInt64) -> Double {
            let maximum = Double((1 << width) - 1)
            return Double((bits >> shift) & ((1 << width) - 1)) / maximum
        }
        switch text.count {
        case 3: return HexColor(red: component(8, 4), green: component(4, 4), blue: component(0, 4))
        case 4: return HexColor(red: component(12, 4), green: component(8, 4), blue: component(4, 4),
                                alpha: component(0, 4))
        case 6: return HexColor(red: component(16, 8), green: component(8, 8), blue: component(0, 8))
        case 8: return HexColor(red: component(24, 8), green: component(16, 8), blue: component(8, 8),
                                alpha: component(0, 8))
        default: return nil
        }
    }

    open func transformToJSON(_ value: HexColor?) -> String? {
        guard let value else { return nil }
        func hex(_ component: Double) -> String {
            let byte = Int((min(max(component, 0), 1) * 255).rounded())
            return String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }
        let text = hex(value.red) + hex(value.green) + hex(value.blue) + (alphaToJSON ? hex(value.alpha) : "")
        return prefixToJSON ? "#" + text : text
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// A custom scalar type that decodes itself from a Foundation-style JSON value and encodes itself as one.
public protocol HandyJSONCustomTransformable {
    static func _transform(from object: Any) -> Self?
    func _plainValue() -> Any?
}
