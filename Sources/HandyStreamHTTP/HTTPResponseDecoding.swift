// AsyncHTTPClient response bodies decoded as they arrive: `HTTPClientResponse.Body` is an `AsyncSequence` of
// `ByteBuffer`s, which ``ModelDecoder``'s ByteBuffer entry points (from HandyStreamNIO, shared with the Vapor and
// Hummingbird integrations) read in place:
//
//     let response = try await client.execute(request, timeout: .seconds(30))
//     let cat = try await ModelDecoder().decode(Cat.self, from: response.body, at: "data.cat")
//     for try await item in ModelDecoder().elements(of: Item.self, at: "data.items", from: response.body) { … }
//
// Built only with the HTTP trait; without it this module only re-exports HandyStream, and nothing of SwiftNIO or
// AsyncHTTPClient is built. `import HandyStreamHTTP` is enough: ModelDecoder and the rest come with it.

@_exported import HandyStreamNIO

#if HTTP
import AsyncHTTPClient
#endif
