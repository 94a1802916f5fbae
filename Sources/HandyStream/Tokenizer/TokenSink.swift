/// The receiver of yajl's events, in yajl's vocabulary. A buffer handed to a sink lives only during the call and has no
/// trailing NUL. A method returns `false` to stop the parse; the sink keeps the reason (an error, or "the value I
/// wanted is complete"). A class, not a protocol, so that the tokenizer calls it as `Unmanaged`, without reference
/// counting. The base traps, so a forgotten override can't pass for "go on", except ``tokenReady(_:)``.
class TokenSink {
    func tokenNull() -> Bool { unimplemented(self) }
    func tokenBool(_ value: Bool) -> Bool { unimplemented(self) }
    /// The number's text exactly as written in the document (`-0.0`, `1e400`, 20-digit integers included).
    func tokenNumber(_ text: UnsafeRawBufferPointer) -> Bool { unimplemented(self) }
    /// The string's bytes with escapes decoded and checked to be valid UTF-8.
    func tokenString(_ bytes: UnsafeRawBufferPointer) -> Bool { unimplemented(self) }
    func tokenKey(_ bytes: UnsafeRawBufferPointer) -> Bool { unimplemented(self) }
    func tokenStartMap() -> Bool { unimplemented(self) }
    func tokenEndMap() -> Bool { unimplemented(self) }
    func tokenStartArray() -> Bool { unimplemented(self) }
    func tokenEndArray() -> Bool { unimplemented(self) }
    /// A value already in memory (a model in a `[String: Any]`): `nil` when the sink can't take it so (events follow).
    func tokenReady(_ value: Any) -> Bool? { nil }
}

/// An event a base class leaves to its subclasses (``TokenSink``, ``Frame``).
func unimplemented(_ receiver: AnyObject, _ event: String = #function) -> Never {
    fatalError("\(type(of: receiver)) does not implement \(event)")
}

extension Unmanaged {
    /// Calls `body` with the instance, which the caller guarantees alive, without retaining it.
    @inline(__always)
    func withInstance<Result>(_ body: (Instance) -> Result) -> Result { _withUnsafeGuaranteedRef(body) }
}
