// AsyncHTTPClient response bodies decoded as they arrive: `HTTPClientResponse.Body` is an `AsyncSequence` of
// `ByteBuffer`s, which ModelDecoder's ByteBuffer entry points (HandyStreamNIO) read in place:
//     let cat = try await ModelDecoder().decode(Cat.self, from: response.body, at: "data.cat")
// Built only with the HTTP trait; without it this module only re-exports HandyStream.

@_exported import HandyStreamNIO

#if HTTP
import AsyncHTTPClient
#endif
