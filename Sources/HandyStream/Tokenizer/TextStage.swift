/// A streaming rewrite of the input before the tokenizer, when the options ask for one (``JSON5Text``,
/// ``TrailingCommas``). A stage holds back what it can't decide yet (a comma, a word) until the
/// next chunk or the end. Stages are objects, so the pipeline chains them without exclusive access to a collection.
protocol TextStage: AnyObject {
    /// Calls `body` with what `chunk` becomes (maybe nothing); throws ``TextStageError`` for text the stage refuses.
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
