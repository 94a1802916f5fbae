// Built only with the Vapor trait (`make test-integrations`): a real Vapor server on loopback, with HandyStream as
// its JSON coder in the two lines the README gives, asked by AsyncHTTPClient.
#if Vapor
import AsyncHTTPClient
import Foundation
import HandyStreamVapor
import IntegrationSupport
import NIOCore
import Testing
import Vapor

struct VaporItem: Content, Equatable, EmptyInitializable {
    var id = 0
    var name = ""
    var price = 0.0
}

/// The shared model from a HandyJSON codebase, as a Vapor `Content`.
extension MappedUser: Content {}

struct VaporSample: Content, Equatable {
    var zeta: String
    var alpha: [Int]
    var path: String
    var nested: [String: Double]
    var flag: Bool?
}

@Suite(.serialized) struct VaporIntegrationTests {
    /// Starts a Vapor app on loopback with HandyStream as its JSON coder, runs `body` with its base URL, stops it.
    func withServer(_ body: (String) async throws -> Void) async throws {
        ContentConfiguration.global.use(decoder: ModelDecoder(), for: .json)
        ContentConfiguration.global.use(encoder: ModelEncoder(options: EncodingOptions(sortedKeys: true)), for: .json)
        // Not the test runner's own arguments: Vapor would read them as its command line.
        let app = try await Application.make(Environment(name: "testing", arguments: ["vapor"]))
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        app.routes.defaultMaxBodySize = "64mb"
        app.post("item") { req async throws -> VaporItem in
            try req.content.decode(VaporItem.self)
        }
        app.post("lenient") { req async throws -> String in
            let heard = Diagnostics()
            var options = DecodingOptions()
            options.diagnostics = { heard.append($0) }
            let item = try req.content.decode(VaporItem.self, using: ModelDecoder(options: options))
            for diagnostic in heard.all { req.logger.info("lenient fallback: \(diagnostic)") }
            return "\(item.price) \(heard.all.count) \(heard.all.first.map { "\($0)" } ?? "")"
        }
        app.get("sample") { _ in Self.sample }
        app.post("mapped") { req async throws -> MappedUser in
            try req.content.decode(MappedUser.self)
        }
        app.on(.POST, "mapped-items", body: .stream) { req async throws -> String in
            var names: [String] = []
            for try await item in ModelDecoder().elements(of: MappedUser.self, at: "items", from: req.body) {
                names.append(item.name)
            }
            return names.joined(separator: ",")
        }
        app.on(.POST, "items", body: .stream) { req async throws -> String in
            try await summarize(ModelDecoder().elements(of: VaporItem.self, at: "items", from: req.body)) { $0.price }
        }
        do {
            try await app.startup()
            let port = try #require(app.http.server.shared.localAddress?.port)
            try await body("http://127.0.0.1:\(port)")
        } catch {
            try await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }

    static let sample = VaporSample(
        zeta: "z/é\"", alpha: [3, 1, 2], path: "a/b", nested: ["b": 2.0, "a": 0.5, "c": 1e-7], flag: nil)

    func post(_ url: String, _ body: String) async throws -> (Int, String) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: bytes))
    }

    /// A route decoding a model: 200 and the value, written back by ModelEncoder.
    @Test func decodesAModel() async throws {
        try await withServer { base in
            let (status, body) = try await post(base + "/item", #"{"id": 7, "name": "lamp", "price": 12.5}"#)
            #expect(status == 200)
            #expect(body == #"{"id":7,"name":"lamp","price":12.5}"#)
        }
    }

    /// A `Content` model that is also HandyJSON: its mapping (a candidate key, a nested path, an exclusion) and its
    /// coding keys hold in the request, in the response, and in a streamed body.
    @Test func mappedContentModel() async throws {
        try await withServer { base in
            let (status, body) = try await post(
                base + "/mapped",
                #"{"profile": {"name": "Ann"}, "name": "no", "user_id": 7, "tags": ["a"], "session": "leak"}"#)
            #expect(status == 200)
            #expect(body == #"{"full_name":"Ann","tags":["a"],"user_id":7}"#)
            let (streamed, names) = try await post(
                base + "/mapped-items", #"{"items": [{"full_name": "Ann"}, {"profile": {"name": "Bob"}}]}"#)
            #expect(streamed == 200)
            #expect(names == "Ann,Bob")
        }
    }

    /// Malformed and truncated bodies: 400, and the reason names the line and column.
    @Test func malformedIsBadRequest() async throws {
        try await withServer { base in
            for bad in malformedBodies {
                let (status, body) = try await post(base + "/item", bad)
                #expect(status == 400, "\(bad): \(status) \(body)")
                let location = errorLocation(of: bad, as: VaporItem.self)
                #expect(body.contains(location), "\(bad): \(body) should name \(location)")
            }
        }
    }

    /// A streamed body that is malformed or cut short: 400, and the reason names the line and column (what the
    /// Hummingbird route must answer too).
    @Test func streamedMalformedIsBadRequest() async throws {
        try await withServer { base in
            for bad in malformedItemLists {
                let (status, body) = try await post(base + "/items", bad)
                #expect(status == 400, "\(bad): \(status) \(body)")
                let location = elementsErrorLocation(of: bad, at: "items", as: VaporItem.self)
                #expect(body.contains(location), "\(bad): \(body) should name \(location)")
            }
            // A string past the servers' token limit is refused where it starts, before the rest of it is read.
            // (Alone: its 8 MiB must not land in a memory measurement running beside it.)
            let (status, reason) = try await measuringMemoryAlone { try await post(base + "/items", overlongNameBody) }
            #expect(status == 400)
            #expect(reason.contains("1:54: a string, key or number longer than 8388608 bytes"), "\(reason.prefix(300))")
        }
    }

    /// Lenient mode keeps what JSONDecoder would refuse, and the route logs the fallback it heard.
    @Test func lenientFallbackIsHeard() async throws {
        try await withServer { base in
            let (status, body) = try await post(base + "/lenient", #"{"id": 1, "name": "x", "price": "N/A"}"#)
            #expect(status == 200)
            #expect(body.hasPrefix("0.0 1 "), "\(body)")
            #expect(body.contains("price"))
        }
    }

    /// The response is what Foundation's JSONEncoder writes with sorted keys, byte for byte.
    @Test func responseAsJSONEncoderWritesIt() async throws {
        try await withServer { base in
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: base + "/sample"), timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            #expect(Array(buffer: bytes) == Array(try encoder.encode(Self.sample)))
            #expect(response.headers.first(name: "Content-Type")?.hasPrefix("application/json") == true)
        }
    }

    /// A 20 MB body streamed element by element: every element arrives, and the server's memory stays flat.
    @Test func streamsALargeBody() async throws {
        try await withServer { base in
            let count = 200_000  // about 21 MB
            let (status, fields) = try await postGeneratedItems(to: base + "/items", count: count)
            #expect(status == 200)
            #expect(fields.first == "\(count)")
            #expect(fields.count == 3 && Double(fields[1]) == GeneratedItems(count: count).priceSum)
            let growth = fields.count == 3 ? Int(fields[2]) ?? .max : .max
            // Far below the body's 21 MB: what a body read whole (or its elements kept) would add.
            #expect(growth < 12 << 20, "resident memory grew by \(growth) bytes while streaming")
        }
    }
}
#endif
