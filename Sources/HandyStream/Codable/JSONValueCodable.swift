import Foundation

// JSONValue as `Codable`: other coders read numbers through the widest type that holds them; this library's keep a
// number's text and the member order (``TapeDecoder/jsonValue(at:depth:)``).

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let tape = decoder as? TapeDecoder {
            self = try tape.jsonValue(at: tape.current, depth: 0)
            return
        }
        if let keyed = try? decoder.container(keyedBy: NamedKey.self) {
            self = .object(
                try keyed.allKeys.map {
                    Member(key: $0.stringValue, value: try keyed.decode(JSONValue.self, forKey: $0))
                })
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let integer = try? single.decode(Int64.self) {
            self = .number(String(integer))
        } else if let integer = try? single.decode(UInt64.self) {
            self = .number(String(integer))
        } else {
            self = .number("\(try single.decode(Double.self))")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let text):
            // The text as a Decimal writes it back digit for digit; past Decimal's range, as a Double.
            var single = encoder.singleValueContainer()
            if let integer = Int64(text) {
                try single.encode(integer)
            } else if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), decimal.isFinite {
                try single.encode(decimal)
            } else {
                try single.encode(Double(text) ?? .nan)
            }
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var unkeyed = encoder.unkeyedContainer()
            for element in elements { try unkeyed.encode(element) }
        case .object(let members):
            var keyed = encoder.container(keyedBy: NamedKey.self)
            for member in members { try keyed.encode(member.value, forKey: NamedKey(member.key)) }
        }
    }
}

extension TapeDecoder {
    /// The value at `index` of the tape, numbers as their text and objects in document order; refused past the
    /// thread's stack, as nested `init(from:)` calls are.
    func jsonValue(at index: Int, depth: Int) throws -> JSONValue {
        let token = tape.pointee.tokens[index]
        switch token.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(context.options.numberText(tape.pointee.bytes(of: index)))
        case .string, .key: return .string(string(at: index))
        case .array, .object:
            guard hasStackRoom(depth: depth) else {
                errorToken = index
                throw StackExhausted(codingPath: node.path, call: "init(from:)")
            }
            if token.kind == .array {
                var elements: [JSONValue] = []
                elements.reserveCapacity(unlessEmpty: token.start)
                try forEachElement(ofArrayAt: index) { position, _ in
                    elements.append(try jsonValue(at: position, depth: depth + 1))
                }
                return .array(elements)
            }
            var members: [JSONValue.Member] = []
            members.reserveCapacity(unlessEmpty: token.start)
            try forEachMember(ofObjectAt: index) { position in
                members.append(
                    .init(key: string(at: position), value: try jsonValue(at: position + 1, depth: depth + 1)))
            }
            return .object(members)
        }
    }
}
