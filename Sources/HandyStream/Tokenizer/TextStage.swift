/// A streaming rewrite of the input text before the tokenizer, when the options ask for one: JSON5 to JSON
/// (``JSON5Text``), an implied top-level object (``ImpliedObject``), trailing commas dropped (``TrailingCommas``).
/// Each stage sees the UTF-8 text in the chunks it arrives in and hands on what it made of them; a stage holds back
/// what it can't decide yet (a comma, a word) until the next chunk or the end. Stages are objects so that the
/// pipeline chains them without exclusive access to a collection of them.
protocol TextStage: AnyObject {
    /// Calls `body` with what `chunk` becomes (possibly nothing); `isLast` when the input ends after it. Throws
    /// ``TextStageError`` for text that the stage's grammar refuses.
    func rewrite(_ chunk: UnsafeRawBufferPointer, isLast: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void) throws
}

/// Text a stage refuses, at `offset` bytes into the text the stage was given (on that text's `line` and `column`).
struct TextStageError: Error {
    var message: String
    var offset: Int
    var line: Int
    var column: Int
    var truncated = false
}

extension Array where Element == any TextStage {
    /// Runs `chunk` through the stages from `index` on, then `body`.
    func rewrite(
        _ chunk: UnsafeRawBufferPointer, isLast: Bool, from index: Int = 0,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard index < count else { return try body(chunk) }
        try self[index].rewrite(chunk, isLast: isLast) { text in
            try rewrite(text, isLast: isLast, from: index + 1, body)
        }
    }
}
