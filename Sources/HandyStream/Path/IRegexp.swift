/// An I-Regexp (RFC 9485), the regular expressions of JSONPath's `match` and `search`: checked against its grammar,
/// then translated into Swift's regex syntax, every character spelled as `\x{…}` so that nothing else is special, and
/// matched over Unicode scalars as the RFC requires (Swift's regexes otherwise match whole characters).
struct IRegexp {
    private let regex: Regex<AnyRegexOutput>
    /// The scalars every whole match starts with, checked before the regex runs (`item 7` of `item 7.*`).
    private let prefix: [Unicode.Scalar]

    /// `nil` when `pattern` is not an I-Regexp: then `match` and `search` are false (RFC 9535 §2.4.6, §2.4.7).
    init?(_ pattern: String) {
        var translator = Translator(Array(pattern.unicodeScalars))
        guard let translated = translator.expression(), translator.atEnd,
            let regex = try? Regex(translated)
        else { return nil }
        self.regex = regex.matchingSemantics(.unicodeScalar)
        prefix = Self.literalPrefix(of: pattern)
    }

    /// The plain scalars a pattern without alternatives starts with, less one that a quantifier follows.
    private static func literalPrefix(of pattern: String) -> [Unicode.Scalar] {
        let special = "\\.[](){}|*+?^$".unicodeScalars
        guard !pattern.unicodeScalars.contains("|") else { return [] }
        let scalars = Array(pattern.unicodeScalars)
        var prefix = Array(scalars.prefix { !special.contains($0) })
        if !prefix.isEmpty, prefix.count < scalars.count, "*+?{".unicodeScalars.contains(scalars[prefix.count]) {
            prefix.removeLast()
        }
        return prefix
    }

    func matchesWhole(_ string: String) -> Bool {
        guard string.unicodeScalars.starts(with: prefix) else { return false }
        return (try? regex.wholeMatch(in: string)) != nil
    }

    func occurs(in string: String) -> Bool { (try? regex.firstMatch(in: string)) != nil }

    private struct Translator {
        let scalars: [Unicode.Scalar]
        var position = 0
        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { position == scalars.count }
        var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        mutating func take(_ c: Unicode.Scalar) -> Bool {
            guard peek == c else { return false }
            position += 1
            return true
        }

        static func literal(_ c: Unicode.Scalar) -> String { "\\x{" + String(c.value, radix: 16) + "}" }

        /// branch *( "|" branch )
        mutating func expression() -> String? {
            var branches: [String] = []
            repeat {
                var branch = ""
                while let c = peek, c != "|", c != ")" {
                    guard let piece = piece() else { return nil }
                    branch += piece
                }
                branches.append(branch)
            } while take("|")
            return branches.joined(separator: "|")
        }

        mutating func piece() -> String? {
            guard var atom = atom() else { return nil }
            switch peek {
            case "*", "+", "?":
                atom += String(scalars[position])
                position += 1
            case "{":
                position += 1
                guard let low = number() else { return nil }
                var high: Int? = low
                if take(",") { high = number() }
                // Bounds past 1,000 are refused: a regex compiled from them could take memory and time without end.
                guard take("}"), high.map({ low <= $0 }) ?? true, max(low, high ?? low) <= 1_000 else { return nil }
                atom += "{\(low)" + (high == low ? "" : ",\(high.map(String.init) ?? "")") + "}"
            default: break
            }
            return atom
        }

        mutating func number() -> Int? {
            let start = position
            var value = 0
            while let c = peek, ("0"..."9").contains(c) {
                value = min(value * 10 + Int(c.value - 48), 1_000_001)
                position += 1
            }
            return position > start ? value : nil
        }

        mutating func atom() -> String? {
            guard let c = peek else { return nil }
            position += 1
            switch c {
            case "(":
                guard let inner = expression(), take(")") else { return nil }
                return "(?:" + inner + ")"
            case ".": return "[^\\n\\r]"
            case "[": return classExpression()
            case "\\": return escape()
            case ")", "*", "+", "?", "]", "{", "|", "}": return nil
            // The Compliance Test Suite reads these as anchors, as most regex dialects do.
            case "^", "$": return String(c)
            default: return Self.literal(c)
            }
        }

        /// After a backslash: a single-character escape or a category.
        mutating func escape() -> String? {
            guard let c = peek else { return nil }
            position += 1
            switch c {
            case "n": return Self.literal("\n")
            case "r": return Self.literal("\r")
            case "t": return Self.literal("\t")
            case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}": return Self.literal(c)
            case "p", "P":
                guard take("{"), let first = peek, "LMNPZSC".unicodeScalars.contains(first) else { return nil }
                position += 1
                let seconds: [Unicode.Scalar: String] = [
                    "L": "lmotu", "M": "cen", "N": "dlo", "P": "cdefios", "Z": "lps", "S": "ckmo", "C": "cfno",
                ]
                var category = String(first)
                if let second = peek, seconds[first]!.unicodeScalars.contains(second) {
                    category.unicodeScalars.append(second)
                    position += 1
                }
                guard take("}") else { return nil }
                return "\\\(c){\(category)}"
            default: return nil
            }
        }

        /// "[" [ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]", the opening bracket read.
        mutating func classExpression() -> String? {
            var result = take("^") ? "[^" : "["
            var first = true
            while true {
                guard let c = peek else { return nil }
                if c == "]" && !first {
                    position += 1
                    return result + "]"
                }
                if c == "-" {
                    // Only first or last.
                    position += 1
                    guard first || peek == "]" else { return nil }
                    result += Self.literal("-")
                    first = false
                    continue
                }
                first = false
                guard let low = classCharacter() else { return nil }
                switch low {
                case .category(let text): result += text
                case .scalar(let lowScalar):
                    if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                        position += 1
                        guard case .scalar(let highScalar)? = classCharacter(), lowScalar <= highScalar else {
                            return nil
                        }
                        result += Self.literal(lowScalar) + "-" + Self.literal(highScalar)
                    } else {
                        result += Self.literal(lowScalar)
                    }
                }
            }
        }

        enum ClassCharacter { case scalar(Unicode.Scalar), category(String) }

        mutating func classCharacter() -> ClassCharacter? {
            guard let c = peek else { return nil }
            position += 1
            switch c {
            case "[", "]", "-": return nil
            case "\\":
                if let next = peek, next == "p" || next == "P" { return escape().map { .category($0) } }
                guard let next = peek else { return nil }
                guard escape() != nil else { return nil }
                return .scalar(next == "n" ? "\n" : next == "r" ? "\r" : next == "t" ? "\t" : next)
            default: return .scalar(c)
            }
        }
    }
}
