import Testing

@testable import HandyStream

/// The `JSONDecodingError` that `body` throws, checked to be of `kind`; an issue is recorded when it throws none, or
/// another error.
@discardableResult
func expectError<R>(
    _ kind: JSONDecodingError.Kind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> JSONDecodingError? {
    let error = #expect(throws: JSONDecodingError.self, sourceLocation: sourceLocation) { _ = try body() }
    if let error { #expect(error.kind == kind, sourceLocation: sourceLocation) }
    return error
}

/// The same for an asynchronous `body`.
@discardableResult
func expectError<R>(
    _ kind: JSONDecodingError.Kind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> R
) async -> JSONDecodingError? {
    let error = await #expect(throws: JSONDecodingError.self, sourceLocation: sourceLocation) { _ = try await body() }
    if let error { #expect(error.kind == kind, sourceLocation: sourceLocation) }
    return error
}

extension JSONDecodingError {
    /// The problems an `invalidModel` error lists, a line each (`Model.property: …`).
    var problems: [String] {
        message.split(separator: "\n").dropFirst().map { String($0.dropFirst("  - ".count)) }
    }
}
