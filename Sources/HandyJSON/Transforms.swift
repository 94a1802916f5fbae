import Foundation
import HandyStream

/// A transform made of two closures.
///
///     mapper <<< self.parent <-- TransformOf<(String, String), String>(
///         fromJSON: { text in text.map { ($0.components(separatedBy: "/")[0], $0.components(separatedBy: "/")[1]) } },
///         toJSON: { pair in pair.map { "\($0.0)/\($0.1)" } })
open class TransformOf<ObjectType, JSONType>: TransformType {

    private let fromJSON: (JSONType?) -> ObjectType?
    private let toJSON: (ObjectType?) -> JSONType?

    /// A transform that reads with `fromJSON` (given the JSON value as `JSONType`, or `nil` when it is of another
    /// type) and writes with `toJSON`.
    public init(fromJSON: @escaping (JSONType?) -> ObjectType?, toJSON: @escaping (ObjectType?) -> JSONType?) {
        self.fromJSON = fromJSON
        self.toJSON = toJSON
    }

    /// The value `fromJSON` makes of `value`.
    open func transformFromJSON(_ value: Any?) -> ObjectType? { fromJSON(value as? JSONType) }
    /// The JSON value `toJSON` makes of `value`.
    open func transformToJSON(_ value: ObjectType?) -> JSONType? { toJSON(value) }
}

/// Seconds since 1970 as a number (or a string holding one) ⇄ `Date`.
open class DateTransform: TransformType {

    /// A transform between seconds since 1970 and `Date`.
    public init() {}

    /// The date `value` seconds after 1970 (from a number, or a string holding one).
    open func transformFromJSON(_ value: Any?) -> Date? {
        switch value {
        case let seconds as Double: Date(timeIntervalSince1970: seconds)
        case let seconds as Int: Date(timeIntervalSince1970: Double(seconds))
        case let text as String: Double(text).map(Date.init(timeIntervalSince1970:))
        default: nil
        }
    }

    /// The date's seconds since 1970.
    open func transformToJSON(_ value: Date?) -> Double? { value?.timeIntervalSince1970 }
}

/// A string in a `DateFormatter`'s format ⇄ `Date`.
open class DateFormatterTransform: TransformType {

    /// The formatter that reads and writes the text.
    public let dateFormatter: DateFormatter

    /// A transform that reads and writes dates with `dateFormatter`.
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

    /// The date the formatter reads in a string.
    open func transformFromJSON(_ value: Any?) -> Date? { (value as? String).flatMap(dateFormatter.date(from:)) }
    /// The date as the formatter writes it.
    open func transformToJSON(_ value: Date?) -> String? { value.map(dateFormatter.string(from:)) }
}

/// ISO 8601 (`2016-06-01T12:00:00Z`) ⇄ `Date`.
open class ISO8601DateTransform: DateFormatterTransform, @unchecked Sendable {
    /// A transform for ISO 8601 dates (`2016-06-01T12:00:00Z`), in UTC.
    public init() {
        super.init(dateFormatter: Self.posixFormatter("yyyy-MM-dd'T'HH:mm:ssZZZZZ"))
    }
}

/// A string in a given date format (in UTC, POSIX locale) ⇄ `Date`.
open class CustomDateFormatTransform: DateFormatterTransform, @unchecked Sendable {
    /// A transform for dates written in `formatString` (a `DateFormatter` format), in UTC with the POSIX locale.
    public init(formatString: String) {
        super.init(dateFormatter: Self.posixFormatter(formatString))
    }
}

/// A string ⇄ `URL`; with `shouldEncodeURLString`, characters not allowed in a URL are percent-encoded first.
open class URLTransform: TransformType {

    private let shouldEncodeURLString: Bool

    /// A transform between strings and URLs; with `shouldEncodeURLString`, characters not allowed in a URL are
    /// percent-encoded before the URL is made.
    public init(shouldEncodeURLString: Bool = true) {
        self.shouldEncodeURLString = shouldEncodeURLString
    }

    /// The URL in a string.
    open func transformFromJSON(_ value: Any?) -> URL? {
        guard let text = value as? String else { return nil }
        guard shouldEncodeURLString else { return URL(string: text) }
        return text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed).flatMap(URL.init(string:))
    }

    /// The URL's absolute string.
    open func transformToJSON(_ value: URL?) -> String? { value?.absoluteString }
}

/// Base64 text ⇄ `Data`.
open class DataTransform: TransformType {

    /// A transform between base64 text and `Data`.
    public init() {}

    /// The bytes base64 text encodes.
    open func transformFromJSON(_ value: Any?) -> Data? { (value as? String).flatMap { Data(base64Encoded: $0) } }
    /// The bytes as base64 text.
    open func transformToJSON(_ value: Data?) -> String? { value?.base64EncodedString() }
}

/// A raw value ⇄ a `RawRepresentable` enum, for enums that are not `HandyJSONEnum`.
open class EnumTransform<T: RawRepresentable>: TransformType {

    /// A transform between raw values and `T`.
    public init() {}

    /// The case whose raw value is `value`.
    open func transformFromJSON(_ value: Any?) -> T? { (value as? T.RawValue).flatMap(T.init(rawValue:)) }
    /// The case's raw value.
    open func transformToJSON(_ value: T?) -> T.RawValue? { value?.rawValue }
}

/// A number or a string holding one ⇄ `NSDecimalNumber`.
open class NSDecimalNumberTransform: TransformType {

    /// A transform between numbers (or strings holding them) and `NSDecimalNumber`.
    public init() {}

    /// The decimal number in a string or a number.
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

    /// The decimal number's text.
    open func transformToJSON(_ value: NSDecimalNumber?) -> String? { value?.description }
}

/// An RGB(A) color with components from 0 to 1: the platform-neutral value `HexColorTransform` produces, since
/// Linux has no UIColor or NSColor.
public struct HexColor: Equatable, Sendable {
    /// Red, from 0 to 1.
    public var red: Double
    /// Green, from 0 to 1.
    public var green: Double
    /// Blue, from 0 to 1.
    public var blue: Double
    /// Opacity, from 0 (transparent) to 1 (opaque).
    public var alpha: Double

    /// A color from its components, each from 0 to 1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}

/// `"#RRGGBB"`, `"#RRGGBBAA"`, `"#RGB"`, `"#RGBA"` (the `#` optional) ⇄ ``HexColor``.
open class HexColorTransform: TransformType {

    private let prefixToJSON: Bool
    private let alphaToJSON: Bool

    /// A transform between hexadecimal color text and ``HexColor``; when writing, `prefixToJSON` adds `#` and
    /// `alphaToJSON` writes the opacity too.
    public init(prefixToJSON: Bool = false, alphaToJSON: Bool = false) {
        self.prefixToJSON = prefixToJSON
        self.alphaToJSON = alphaToJSON
    }

    /// The color in `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` text (the `#` optional).
    open func transformFromJSON(_ value: Any?) -> HexColor? {
        guard var text = value as? String else { return nil }
        if text.hasPrefix("#") { text.removeFirst() }
        guard let bits = UInt64(text, radix: 16), text.allSatisfy(\.isHexDigit) else { return nil }
        guard [3, 4, 6, 8].contains(text.count) else { return nil }
        // Three components (RGB) or four (RGBA), of one or two digits each.
        let count = text.count % 3 == 0 ? 3 : 4
        let width = UInt64(text.count / count * 4)
        func component(_ index: Int) -> Double {
            let maximum: UInt64 = (1 << width) - 1
            return Double((bits >> (UInt64(count - 1 - index) * width)) & maximum) / Double(maximum)
        }
        return HexColor(
            red: component(0), green: component(1), blue: component(2), alpha: count == 4 ? component(3) : 1)
    }

    /// The color as hexadecimal text.
    open func transformToJSON(_ value: HexColor?) -> String? {
        guard let value else { return nil }
        func hex(_ component: Double) -> String {
            let byte = Int((min(max(component, 0), 1) * 255).rounded())
            return (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
        let text = hex(value.red) + hex(value.green) + hex(value.blue) + (alphaToJSON ? hex(value.alpha) : "")
        return prefixToJSON ? "#" + text : text
    }
}
