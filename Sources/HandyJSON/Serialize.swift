import Foundation
import HandyStream

// HandyJSON's serialization calls: `nil` where HandyJSON gave `nil` (a value that can't be written).

extension HandyJSON {
    /// The model as Foundation-style values, each number in its property's type (`UInt64.max` stays a `UInt64`, a
    /// `Decimal` a `Decimal`), as HandyJSON gave them.
    public func toJSON() -> [String: Any]? {
        (try? ModelEncoder().foundationValue(self)) as? [String: Any]
    }

    /// The model's JSON text, compact or pretty printed.
    public func toJSONString(prettyPrint: Bool = false) -> String? {
        jsonBytes(self, prettyPrint: prettyPrint).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The model's JSON bytes.
    public func toJSONData(prettyPrint: Bool = false) -> Data? {
        jsonBytes(self, prettyPrint: prettyPrint).map { Data($0) }
    }
}

extension Collection where Element: HandyJSON {
    /// Each model as Foundation-style values.
    public func toJSON() -> [[String: Any]?] { map { $0.toJSON() } }

    /// The models as one JSON array.
    public func toJSONString(prettyPrint: Bool = false) -> String? {
        jsonBytes(Array(self), prettyPrint: prettyPrint).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The models as one JSON array, as `Data`; `nil` when a value can't be written.
    public func toJSONData(prettyPrint: Bool = false) -> Data? {
        jsonBytes(Array(self), prettyPrint: prettyPrint).map { Data($0) }
    }
}

/// By the field tables; `nil` when a value can't be written.
private func jsonBytes<T>(_ value: T, prettyPrint: Bool) -> [UInt8]? {
    try? ModelEncoder(options: EncodingOptions(prettyPrinted: prettyPrint)).encodeByTables(value)
}
