import HandyStream
import Foundation
let data = try! Data(contentsOf: URL(fileURLWithPath: "Benchmarks/Corpus/mesh.json"))
let ours = try! ModelDecoder().decode(Any.self, from: data)
let theirs = try! JSONSerialization.jsonObject(with: data)
func walk(_ a: Any, _ b: Any, _ path: String, _ budget: inout Int) {
    if budget <= 0 { return }
    if let x = a as? [String: Any], let y = b as? [String: Any] { for (k, v) in x { walk(v, y[k] as Any, path + "." + k, &budget) }; return }
    if let x = a as? [Any], let y = b as? [Any] { for (i, v) in x.enumerated() { walk(v, y[i], path + "[\(i)]", &budget) }; return }
    if !NSDictionary(dictionary: ["v": a]).isEqual(to: ["v": b]) { budget -= 1; print(path, a, type(of: a), b, type(of: b)) }
}
var budget = 5
walk(ours, theirs, "$", &budget)
