// What the Vapor and Hummingbird integration tests share: a body made as it is sent, the process's resident memory,
// and a collector of diagnostics. Built only with one of those traits.
#if Vapor || Hummingbird
import AsyncHTTPClient
import Foundation
import HandyJSON
import NIOCore
import Synchronization

/// A model from a HandyJSON codebase that both frameworks decode and answer: its mapping holds in requests and
/// responses, with its coding keys (each test adds its framework's conformance).
public struct MappedUser: Codable, HandyJSON, Equatable, Sendable {
    public var name = ""
    public var userId = 0
    public var tags: [String] = []
    public var session = "none"
    enum CodingKeys: String, CodingKey {
        case name
        case userId = "user_id"
        case tags, session
    }
    public init() {}
    public mutating func mapping(mapper: HelpingMapper) {
        mapper <<< name <-- ["full_name", "profile.name"]
        mapper >>> session
    }
}

/// Bodies that are not JSON (malformed, cut short): each must be answered 400 with its location.
public let malformedBodies = ["{\"id\": 1,,", "{\n  \"id\": 1,\n  \"name\": \"lamp\"", "[tru"]

/// A streamed body of items whose second name is one byte past `DecodingOptions.serverMaximumTokenLength`: a decoder
/// whose options set no limit refuses it, with 400, at the name's line and column.
public let overlongNameBody =
    #"{"items": [{"id": 1, "name": "a"}, {"id": 2, "name": ""#
    + String(repeating: "x", count: DecodingOptions.serverMaximumTokenLength + 1) + #""}]}"#

/// Streamed bodies of items (at `items`) that are not JSON: malformed in an element, cut short on the third line,
/// and malformed after the array (its element is delivered first). Each must be answered 400 with its location.
public let malformedItemLists = [
    #"{"items": [{"id": 1, "price": 2}, {"id": 2,,"#,
    "{\"items\": [\n  {\"id\": 1, \"price\": 2},\n  {\"id\": 2, \"name\": \"lamp\"",
    #"{"items": [{"id": 1}], "next": tru}"#,
]

/// Where HandyStream locates the error in `body` decoded as `T` (the value at `path`): `line:column`, as the reason
/// must name it.
public func errorLocation<T: Decodable>(of body: String, at path: String = "", as _: T.Type) -> String {
    let result = Result {
        try ModelDecoder(options: DecodingOptions(strict: true)).decode(T.self, from: body, at: path)
    }
    return lineAndColumn(of: result)
}

/// The same for the elements at `path` of `body`, decoded one by one as a streamed body is.
public func elementsErrorLocation<T: Decodable>(of body: String, at path: String, as _: T.Type) -> String {
    let result = Result<Void, any Error> {
        let elements = try ModelDecoder().elements(of: T.self, at: path)
        _ = try elements.feed(Array(body.utf8))
        _ = try elements.finish()
    }
    return lineAndColumn(of: result)
}

private func lineAndColumn<Success>(of result: Result<Success, any Error>) -> String {
    guard case .failure(DecodingError.dataCorrupted(let context)) = result,
        let location = context.underlyingError as? JSONDecodingError
    else { return "(no location)" }
    return "\(location.line):\(location.column)"
}

/// POSTs `count` generated items to `url`, sent as they are made, and returns the status and the answer's text (the
/// routes answer `count priceSum residentGrowth`).
public func postGeneratedItems(to url: String, count: Int) async throws -> (status: UInt, fields: [Substring]) {
    try await measuringMemoryAlone { try await postGeneratedItemsNow(to: url, count: count) }
}

private func postGeneratedItemsNow(to url: String, count: Int) async throws -> (status: UInt, fields: [Substring]) {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .stream(GeneratedItems(count: count), length: .unknown)
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
    let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
    let fields = text.split(separator: " ")
    print("streamed \(fields.first ?? "?") elements, resident memory grew by \(fields.last ?? "?") bytes")
    return (response.status.code, fields)
}

/// The process's resident memory, in bytes.
public func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
}

/// `{"items": [...]}` of `count` items of about 100 bytes, made chunk by chunk as the client sends it (never whole in
/// memory); item `n` has the price `n + 0.5`.
public struct GeneratedItems: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer
    public let count: Int

    public init(count: Int) { self.count = count }

    /// The sum of every item's price.
    public var priceSum: Double { Double(count) * Double(count - 1) / 2 + Double(count) * 0.5 }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let count: Int
        var position = 0
        var done = false

        public mutating func next() async throws -> ByteBuffer? {
            if done { return nil }
            var text = position == 0 ? #"{"items": ["# : ""
            let end = Swift.min(position + 500, count)
            let padding = String(repeating: "x", count: 60)
            while position < end {
                text +=
                    (position == 0 ? "" : ",")
                    + #"{"id":\#(position),"name":"item \#(position) \#(padding)","price":\#(position).5}"#
                position += 1
            }
            if position == count {
                text += "]}"
                done = true
            }
            return ByteBuffer(string: text)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count) }
}

/// What a route that streams items answers: `count priceSum residentGrowth`, the peak growth of resident memory over
/// what it was before the body was read (measured every 1,000 items): a body collected first, or elements kept, would
/// add its 21 MB.
public func summarize<Items: AsyncSequence>(_ items: Items, price: (Items.Element) -> Double) async throws -> String {
    var count = 0
    var priceSum = 0.0
    let baseline = residentBytes()
    var peakGrowth = 0
    for try await item in items {
        if count % 1_000 == 0 { peakGrowth = Swift.max(peakGrowth, residentBytes() - baseline) }
        priceSum += price(item)
        count += 1
    }
    return "\(count) \(priceSum) \(peakGrowth)"
}

/// Runs one memory measurement at a time in the process (the test suites run in parallel, and resident memory is the
/// whole process's).
public func measuringMemoryAlone<T>(_ body: () async throws -> T) async throws -> T {
    await MeasurementTurn.shared.acquire()
    do {
        let result = try await body()
        await MeasurementTurn.shared.release()
        return result
    } catch {
        await MeasurementTurn.shared.release()
        throw error
    }
}

actor MeasurementTurn {
    static let shared = MeasurementTurn()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}

/// The README's collector of diagnostics (its Concurrency section), used as the README's server snippets use it.
public final class Diagnostics: Sendable {
    private let storage = Mutex<[DecodingDiagnostic]>([])
    public init() {}
    public func append(_ diagnostic: DecodingDiagnostic) { storage.withLock { $0.append(diagnostic) } }
    public var all: [DecodingDiagnostic] { storage.withLock { $0 } }
}
#endif
