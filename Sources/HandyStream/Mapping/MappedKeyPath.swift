/// The syntax of a mapped key (`<--` in `mapping(mapper:)`, `DecodableMapping.keyMapping`): a dotted path into
/// nested objects, `userInfo.age`, where `\.` is a literal dot.
enum MappedKeyPath {
    /// Splits a key path at unescaped dots; `\.` is a literal dot. Empty segments are dropped.
    static func segments(of path: String) -> [String] {
        var segments: [String] = []
        var current = ""
        var escaped = false
        for character in path {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "." {
                if !current.isEmpty { segments.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        if !current.isEmpty { segments.append(current) }
        return segments
    }
}
