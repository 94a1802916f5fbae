// HandyStream as Vapor's JSON coder:
//     ContentConfiguration.global.use(decoder: ModelDecoder(), for: .json)
//     ContentConfiguration.global.use(encoder: ModelEncoder(), for: .json)
// A route with `body: .stream` can read its body element by element, in flat memory:
//     for try await item in ModelDecoder().elements(of: Item.self, at: "items", from: req.body) { … }
// Bad input is a `DecodingError` (malformed JSON too), which Vapor answers with 400 and the error's description
// (line, column, JSON path). Built only with the Vapor trait; without it this module only re-exports HandyStream.

@_exported import HandyStreamNIO

#if Vapor
import Foundation
import NIOCore
import NIOHTTP1
import Vapor

extension ModelDecoder: ContentDecoder {
    /// Decodes a request or response body (Vapor calls this for `req.content.decode(T.self)`).
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        try decode(decodable, from: body, at: "")
    }

    /// Decodes a body with `userInfo` added to the options' `userInfo` (what the `Decoder` gives `init(from:)`).
    public func decode<D: Decodable>(
        _ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders, userInfo: [CodingUserInfoKey: any Sendable]
    ) throws -> D {
        guard !userInfo.isEmpty else { return try decode(decodable, from: body, at: "") }
        var options = self.options
        options.userInfo.merge(userInfo) { _, new in new }
        return try ModelDecoder(options: options).decode(decodable, from: body, at: "")
    }
}

extension ModelEncoder: ContentEncoder {
    /// Writes `encodable` as JSON into a response or request body and sets its content type.
    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        headers.contentType = .json
        body.writeBytes(try encode(encodable))
    }

    /// Writes `encodable` with `userInfo` added to the options' `userInfo` (what the `Encoder` gives
    /// `encode(to:)`).
    public func encode<E: Encodable>(
        _ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders,
        userInfo: [CodingUserInfoKey: any Sendable]
    ) throws {
        guard !userInfo.isEmpty else { return try encode(encodable, to: &body, headers: &headers) }
        var options = self.options
        options.userInfo.merge(userInfo) { _, new in new }
        try ModelEncoder(options: options).encode(encodable, to: &body, headers: &headers)
    }
}
#endif
