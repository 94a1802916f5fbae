import HandyStream
import Foundation
struct E: HandyJSON { var extra: [String: Any] = [:]; var a: Any? ; var arr: [Any] = [] }
print(try! ModelDecoder().decode(Any.self, from: #"1"#))
print(try! ModelDecoder().decode(E.self, from: #"{"extra": {"x": [1, 2.5, null, true], "y": "s"}, "a": {"k": 1}, "arr": [1, {"z": 2}]}"#))
