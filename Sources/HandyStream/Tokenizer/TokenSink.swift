/// The receiver of yajl's events, in yajl's own vocabulary.
///
/// Every buffer handed to a sink lives only for the duration of the call and carries no trailing NUL: copy what must
/// outlive it. Each method returns `false` to stop the parse; a sink that stops keeps the reason itself (a rich
/// error, or "the value I wanted is complete"), and the ``Tokenizer`` reports only that it was stopped.
protocol TokenSink: AnyObject {
    func tokenNull() -> Bool
    func tokenBool(_ value: Bool) -> Bool
    /// The number's text exactly as written in the document (`-0.0`, `1e400`, 20-digit integers included).
    func tokenNumber(_ text: UnsafeRawBufferPointer) -> Bool
    /// The string's bytes with escapes decoded; yajl has already checked that they are valid UTF-8.
    func tokenString(_ bytes: UnsafeRawBufferPointer) -> Bool
    func tokenKey(_ bytes: UnsafeRawBufferPointer) -> Bool
    func tokenStartMap() -> Bool
    func tokenEndMap() -> Bool
    func tokenStartArray() -> Bool
    func tokenEndArray() -> Bool
}
