import Foundation
import HandyStream
import Synchronization

struct Cat: HandyJSON {
    var name = ""
    var age = 0
}

let cat = try ModelDecoder().decode(Cat.self, from: #"{"data": {"cat": {"name": "Tom", "age": "3"}}}"#, at: "data.cat")
print("\(cat.name) \(cat.age)")

// The README's Concurrency section, in Swift 6 mode: diagnostics collected from a @Sendable handler, an element
// sequence handed to another task, a file read without blocking the cooperative pool.
final class Diagnostics: Sendable {
    private let storage = Mutex<[DecodingDiagnostic]>([])
    func append(_ diagnostic: DecodingDiagnostic) { storage.withLock { $0.append(diagnostic) } }
    var all: [DecodingDiagnostic] { storage.withLock { $0 } }
}

struct Item: Codable, Sendable {
    var id: Int
    var price: Double?
}

let heard = Diagnostics()
var options = DecodingOptions()
options.diagnostics = { heard.append($0) }
let items = try ModelDecoder(options: options).decode([Item].self, from: #"[{"id": 1, "price": "N/A"}, {"id": 2}]"#)
print("\(items.count) items, \(heard.all.count) fallback at \(heard.all.first?.path ?? "")")

let chunks = [Array(#"{"items": [{"id": 1}, "#.utf8), Array(#"{"id": 2}]}"#.utf8)]
let sequence = ModelDecoder().elements(of: Item.self, at: "items", from: AsyncStream { continuation in
    for chunk in chunks { continuation.yield(chunk) }
    continuation.finish()
})
let ids = try await Task.detached { try await sequence.reduce(into: [Int]()) { $0.append($1.id) } }.value
print("ids \(ids)")

let path = NSTemporaryDirectory() + "consumer-\(ProcessInfo.processInfo.processIdentifier).json"
try Data(#"{"total": 42}"#.utf8).write(to: URL(fileURLWithPath: path))
print("total \(try await ModelDecoder().decode(Int.self, fileAt: path, at: "total"))")
try FileManager.default.removeItem(atPath: path)
