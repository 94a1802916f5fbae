// Built only with the HTTP trait (`swift build --traits HTTP`): without it this module is empty, and nothing of
// SwiftNIO or AsyncHTTPClient is built.
#if HTTP
import AsyncHTTPClient
// HandyStreamHTTP alone brings ModelDecoder and the rest, as the README's example has it.
import HandyStreamHTTP
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

struct HTTPItem: HandyJSON, Equatable {
    var id = 0
    var name = ""
}

/// The same elements as a plain Codable type.
struct CodableHTTPItem: Codable, Equatable {
    var id: Int
    var name: String
}

/// A real HTTP server on loopback that sends one JSON document in many small chunks.
final class ChunkedJSONServer: @unchecked Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var channel: Channel?
    let document: [UInt8]
    let chunkSize: Int

    init(document: [UInt8], chunkSize: Int) {
        self.document = document
        self.chunkSize = chunkSize
    }

    var port: Int { channel?.localAddress?.port ?? 0 }

    func start() async throws {
        let document = self.document
        let chunkSize = self.chunkSize
        channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Responder(document: document, chunkSize: chunkSize))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func stop() async throws {
        try await channel?.close()
        try await group.shutdownGracefully()
    }

    final class Responder: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let document: [UInt8]
        let chunkSize: Int

        init(document: [UInt8], chunkSize: Int) {
            self.document = document
            self.chunkSize = chunkSize
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            var headers = HTTPHeaders()
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "transfer-encoding", value: "chunked")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))),
                promise: nil)
            var offset = 0
            while offset < document.count {
                let end = min(document.count, offset + chunkSize)
                let buffer = context.channel.allocator.buffer(bytes: document[offset..<end])
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
                offset = end
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}

@Suite("HTTP responses")
struct HTTPResponseDecodingTests {
    static let count = 2_000
    static let document: [UInt8] = {
        let items = (0..<count).map { #"{"id": \#($0), "name": "item \#($0) \#(String(repeating: "x", count: 40))"}"# }
        return Array(#"{"data": {"total": \#(count), "items": [\#(items.joined(separator: ","))]}}"#.utf8)
    }()

    @Test("A large body sent in many small chunks: one value at a path, and a stream of elements")
    func decodesAsTheBodyArrives() async throws {
        let server = ChunkedJSONServer(document: Self.document, chunkSize: 97)
        try await server.start()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let url = "http://127.0.0.1:\(server.port)/items"
            let first = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            let total = try await ModelDecoder().decode(Int.self, from: first.body, at: "data.total")
            #expect(total == Self.count)

            let second = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            var ids: [Int] = []
            for try await item in ModelDecoder().elements(of: HTTPItem.self, at: "data.items", from: second.body) {
                ids.append(item.id)
            }
            #expect(ids == Array(0..<Self.count))
            #expect(Self.document.count > 100_000)

            let third = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            var names: [String] = []
            for try await item in ModelDecoder().elements(of: CodableHTTPItem.self, at: "data.items", from: third.body)
            {
                names.append(item.name)
            }
            #expect(names.count == Self.count && names.last?.hasPrefix("item \(Self.count - 1) ") == true)
            let fourth = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            let item = try await ModelDecoder().decode(CodableHTTPItem.self, from: fourth.body, at: "data.items[7]")
            #expect(item.id == 7)
        } catch {
            try await client.shutdown()
            try await server.stop()
            throw error
        }
        try await client.shutdown()
        try await server.stop()
    }
}

/// The ByteBuffer entry points the three integrations share: one buffer, push decoders fed buffers, and any
/// AsyncSequence of buffers (here not a network body), each read in place.
@Suite struct ByteBufferEntryPointTests {
    let json = #"{"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], "total": 2}"#

    @Test func buffersInEveryDecodingCall() async throws {
        let buffer = ByteBuffer(string: json)
        #expect(try ModelDecoder().decode(Int.self, from: buffer, at: "total") == 2)
        #expect(try ModelDecoder().decode([CodableHTTPItem].self, from: buffer, at: "items").map(\.id) == [1, 2])
        #expect(buffer.readableBytes == json.utf8.count)  // read in place, not consumed

        let slices = stride(from: 0, to: json.utf8.count, by: 5).map { start in
            ByteBuffer(bytes: Array(json.utf8)[start..<min(start + 5, json.utf8.count)])
        }
        let incremental = try ModelDecoder().incremental(HTTPItem.self, at: "items[1]")
        var complete = false
        for slice in slices where !complete { complete = try incremental.feed(slice) }
        #expect(try incremental.finish() == HTTPItem(id: 2, name: "b"))
        let elements = try ModelDecoder().elements(of: HTTPItem.self, at: "items")
        var names: [String] = []
        for slice in slices { names += try elements.feed(slice).map(\.name) }
        names += try elements.finish().map(\.name)
        #expect(names == ["a", "b"])

        let body = AsyncStream<ByteBuffer> { continuation in
            for slice in slices { continuation.yield(slice) }
            continuation.finish()
        }
        var ids: [Int] = []
        for try await item in ModelDecoder().elements(of: CodableHTTPItem.self, at: "items", from: body) {
            ids.append(item.id)
        }
        #expect(ids == [1, 2])
        let again = AsyncStream<ByteBuffer> { continuation in
            for slice in slices { continuation.yield(slice) }
            continuation.finish()
        }
        #expect(try await ModelDecoder().decode(Int.self, from: again, at: "total") == 2)
    }
}
#endif
