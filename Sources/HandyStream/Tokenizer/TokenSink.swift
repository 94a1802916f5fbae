/// The receiver of yajl's events, in yajl's own vocabulary.
///
/// Every buffer handed to a sink lives only for the duration of the call and carries no trailing NUL: copy what must
/// outlive it. Each method returns `false` to stop the parse; a sink that stops keeps the reason itself (a rich
/// error, or "the value I wanted is complete"), and the ``Tokenizer`` reports only that it was stopped.
///
/// A class rather than a protocol so that the tokenizer can hold its sink as `Unmanaged` and call it without
/// reference counting on every event. Every sink implements every event (the base traps: a forgotten override must
/// not pass for "go on"), except ``tokenReady(_:)``, whose default is a real answer.
class TokenSink {
    func tokenNull() -> Bool { unimplemented() }
    func tokenBool(_ value: Bool) -> Bool { unimplemented() }
    /// The number's text exactly as written in the document (`-0.0`, `1e400`, 20-digit integers included).
    func tokenNumber(_ text: UnsafeRawBufferPointer) -> Bool { unimplemented() }
    /// The string's bytes with escapes decoded and checked to be valid UTF-8.
    func tokenString(_ bytes: UnsafeRawBufferPointer) -> Bool { unimplemented() }
    func tokenKey(_ bytes: UnsafeRawBufferPointer) -> Bool { unimplemented() }
    func tokenStartMap() -> Bool { unimplemented() }
    func tokenEndMap() -> Bool { unimplemented() }
    func tokenStartArray() -> Bool { unimplemented() }
    func tokenEndArray() -> Bool { unimplemented() }
    /// A value already in memory (a model instance inside a `[String: Any]`), offered as it is: `nil` when the sink
    /// can't take it so, and the caller sends its events instead; otherwise whether to go on.
    func tokenReady(_ value: Any) -> Bool? { nil }

    private func unimplemented(_ event: String = #function) -> Never {
        fatalError("\(type(of: self)) does not implement \(event)")
    }
}

extension Unmanaged {
    /// Calls `body` with the instance, which the caller guarantees alive, without retaining it.
    @inline(__always)
    func withInstance<Result>(_ body: (Instance) -> Result) -> Result { _withUnsafeGuaranteedRef(body) }
}
