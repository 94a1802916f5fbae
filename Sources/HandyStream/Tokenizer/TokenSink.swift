/// The receiver of yajl's events, in yajl's own vocabulary.
///
/// Every buffer handed to a sink lives only for the duration of the call and carries no trailing NUL: copy what must
/// outlive it. Each method returns `false` to stop the parse; a sink that stops keeps the reason itself (a rich
/// error, or "the value I wanted is complete"), and the ``Tokenizer`` reports only that it was stopped.
///
/// A class rather than a protocol so that the tokenizer can hold its sink as `Unmanaged` and call it without
/// reference counting on every event.
class TokenSink {
    func tokenNull() -> Bool { true }
    func tokenBool(_ value: Bool) -> Bool { true }
    /// The number's text exactly as written in the document (`-0.0`, `1e400`, 20-digit integers included).
    func tokenNumber(_ text: UnsafeRawBufferPointer) -> Bool { true }
    /// The string's bytes with escapes decoded; yajl has already checked that they are valid UTF-8.
    func tokenString(_ bytes: UnsafeRawBufferPointer) -> Bool { true }
    func tokenKey(_ bytes: UnsafeRawBufferPointer) -> Bool { true }
    func tokenStartMap() -> Bool { true }
    func tokenEndMap() -> Bool { true }
    func tokenStartArray() -> Bool { true }
    func tokenEndArray() -> Bool { true }
    /// A value already in memory (a model instance inside a `[String: Any]`), offered as it is: `nil` when the sink
    /// can't take it so, and the caller sends its events instead; otherwise whether to go on.
    func tokenReady(_ value: Any) -> Bool? { nil }
}

extension Unmanaged {
    /// Calls `body` with the instance, which the caller guarantees alive, without retaining it.
    @inline(__always)
    func withInstance<Result>(_ body: (Instance) -> Result) -> Result { _withUnsafeGuaranteedRef(body) }
}
