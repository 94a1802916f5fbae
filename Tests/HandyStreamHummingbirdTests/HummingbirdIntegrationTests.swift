// Built only with the Hummingbird trait (`make test-integrations`): a real Hummingbird server on loopback (its
// testing library's live mode), with HandyStream as the request decoder and response encoder of its context.
#if Hummingbird
import AsyncHTTPClient
import Foundation
import HandyStreamHummingbird
import IntegrationSupport
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

struct BirdItem: Codable, Equatable, EmptyInitializable, ResponseEncodable {
    var id = 0
    var name = ""
    var price = 0.0
}

/// The shared model from a HandyJSON codebase, as a Hummingbird response.
extension MappedUser: ResponseEncodable {}

struct BirdSample: Codable, Equatable, ResponseEncodable {
    var zeta: String
    var alpha: [Int]
    var path: String
    var nested: [String: Double]
    var flag: Bool?
}

/// The README's context, as it is written there.
struct AppContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var requestDecoder: ModelDecoder { ModelDecoder() }
    var responseEncoder: ModelEncoder { ModelEncoder() }
    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
}

/// The README's context with sorted keys (to compare bytes with JSONEncoder) and room for the large body.
struct HandyContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var requestDecoder: ModelDecoder { ModelDecoder() }
    var responseEncoder: ModelEncoder { ModelEncoder(options: EncodingOptions(sortedKeys: true)) }
    var maxUploadSize: Int { 64 << 20 }

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

@Suite struct HummingbirdIntegrationTests {
    static let sample = BirdSample(
        zeta: "z/é\"", alpha: [3, 1, 2], path: "a/b", nested: ["b": 2.0, "a": 0.5, "c": 1e-7], flag: nil)

    func makeApp() -> some ApplicationProtocol {
        let router = Router(context: HandyContext.self)
        router.post("item") { request, context -> BirdItem in
            try await request.decode(as: BirdItem.self, context: context)
        }
        router.post("lenient") { request, context -> String in
            let heard = Diagnostics()
            var options = DecodingOptions()
            options.diagnostics = { heard.append($0) }
            let item = try await ModelDecoder(options: options).decode(BirdItem.self, from: request, context: context)
            for diagnostic in heard.all { context.logger.info("lenient fallback: \(diagnostic)") }
            return "\(item.price) \(heard.all.count) \(heard.all.first.map { "\($0)" } ?? "")"
        }
        router.get("sample") { _, _ in Self.sample }
        router.post("mapped") { request, context -> MappedUser in
            try await request.decode(as: MappedUser.self, context: context)
        }
        router.post("mapped-items") { request, _ -> String in
            var names: [String] = []
            for try await item in ModelDecoder().elements(of: MappedUser.self, at: "items", from: request.body) {
                names.append(item.name)
            }
            return names.joined(separator: ",")
        }
        router.post("items") { request, _ -> String in
            try await summarize(ModelDecoder().elements(of: BirdItem.self, at: "items", from: request.body)) {
                $0.price
            }
        }
        router.post("order") { request, _ -> BirdItem in
            try await ModelDecoder().decode(BirdItem.self, from: request.body, at: "order")
        }
        return Application(router: router)
    }

    func post(_ client: some TestClientProtocol, _ uri: String, _ body: String) async throws -> (
        HTTPResponse.Status, String
    ) {
        try await client.execute(uri: uri, method: .post, body: ByteBuffer(string: body)) { response in
            (response.status, String(buffer: response.body))
        }
    }

    /// The README's context, unchanged: a model decoded and written back.
    @Test func readmeContext() async throws {
        let router = Router(context: AppContext.self)
        router.post("item") { request, context -> BirdItem in
            try await request.decode(as: BirdItem.self, context: context)
        }
        try await Application(router: router).test(.live) { client in
            let (status, body) = try await post(client, "/item", #"{"id": 7, "name": "lamp", "price": 12.5}"#)
            #expect(status == .ok)
            #expect(body == #"{"id":7,"name":"lamp","price":12.5}"#)
        }
    }

    /// A route decoding a model: 200 and the value, written back by ModelEncoder.
    @Test func decodesAModel() async throws {
        try await makeApp().test(.live) { client in
            let (status, body) = try await post(client, "/item", #"{"id": 7, "name": "lamp", "price": 12.5}"#)
            #expect(status == .ok)
            #expect(body == #"{"id":7,"name":"lamp","price":12.5}"#)
        }
    }

    /// A model that is also HandyJSON: its mapping (a candidate key, a nested path, an exclusion) and its coding keys
    /// hold in the request, in the response, and in a streamed body.
    @Test func mappedModel() async throws {
        try await makeApp().test(.live) { client in
            let (status, body) = try await post(
                client, "/mapped",
                #"{"profile": {"name": "Ann"}, "name": "no", "user_id": 7, "tags": ["a"], "session": "leak"}"#)
            #expect(status == .ok)
            #expect(body == #"{"full_name":"Ann","tags":["a"],"user_id":7}"#)
            let (streamed, names) = try await post(
                client, "/mapped-items", #"{"items": [{"full_name": "Ann"}, {"profile": {"name": "Bob"}}]}"#)
            #expect(streamed == .ok)
            #expect(names == "Ann,Bob")
        }
    }

    /// Malformed and truncated bodies: 400, and the message names the line and column.
    @Test func malformedIsBadRequest() async throws {
        try await makeApp().test(.live) { client in
            for bad in malformedBodies {
                let (status, body) = try await post(client, "/item", bad)
                #expect(status == .badRequest, "\(bad): \(status) \(body)")
                let location = errorLocation(of: bad, as: BirdItem.self)
                #expect(body.contains(location), "\(bad): \(body) should name \(location)")
            }
        }
    }

    /// A streamed body that is malformed or cut short, read element by element or decoded at a path as it arrives:
    /// 400 (not Hummingbird's 500 for an error it doesn't know), and the message names the line and column, as the
    /// decoding route's does.
    @Test func streamedMalformedIsBadRequest() async throws {
        try await makeApp().test(.live) { client in
            for bad in malformedItemLists {
                let (status, body) = try await post(client, "/items", bad)
                #expect(status == .badRequest, "\(bad): \(status) \(body)")
                let location = elementsErrorLocation(of: bad, at: "items", as: BirdItem.self)
                #expect(body.contains(location), "\(bad): \(body) should name \(location)")
            }
            for bad in malformedBodies.map({ "{\"order\": " + $0 }) {
                let (status, body) = try await post(client, "/order", bad)
                #expect(status == .badRequest, "\(bad): \(status) \(body)")
                let location = errorLocation(of: bad, at: "order", as: BirdItem.self)
                #expect(body.contains(location), "\(bad): \(body) should name \(location)")
            }
            // A string past the servers' token limit is refused where it starts, before the rest of it is read.
            // (Alone: its 8 MiB must not land in a memory measurement running beside it.)
            let (overlong, reason) = try await measuringMemoryAlone {
                try await post(client, "/items", overlongNameBody)
            }
            #expect(overlong == .badRequest)
            #expect(reason.contains("1:54: a string, key or number longer than 8388608 bytes"), "\(reason.prefix(300))")
            // A good body still decodes.
            let good = #"{"order": {"id": 7, "name": "lamp", "price": 12.5}, "next": null}"#
            let (status, body) = try await post(client, "/order", good)
            #expect(status == .ok)
            #expect(body == #"{"id":7,"name":"lamp","price":12.5}"#)
        }
    }

    /// Lenient mode keeps what JSONDecoder would refuse, and the route logs the fallback it heard.
    @Test func lenientFallbackIsHeard() async throws {
        try await makeApp().test(.live) { client in
            let (status, body) = try await post(client, "/lenient", #"{"id": 1, "name": "x", "price": "N/A"}"#)
            #expect(status == .ok)
            #expect(body.hasPrefix("0.0 1 "), "\(body)")
            #expect(body.contains("price"))
        }
    }

    /// The response is what Foundation's JSONEncoder (Hummingbird's default) writes with sorted keys, byte for byte.
    @Test func responseAsJSONEncoderWritesIt() async throws {
        try await makeApp().test(.live) { client in
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let expected = Array(try encoder.encode(Self.sample))
            try await client.execute(uri: "/sample", method: .get) { response in
                #expect(Array(buffer: response.body) == expected)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            }
        }
    }

    /// A 20 MB body streamed element by element (sent by AsyncHTTPClient as it is made): every element arrives, and
    /// the server's memory stays flat.
    @Test func streamsALargeBody() async throws {
        try await makeApp().test(.live) { client in
            let port = try #require(client.port)
            let count = 200_000  // about 21 MB
            let (status, fields) = try await postGeneratedItems(to: "http://127.0.0.1:\(port)/items", count: count)
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
