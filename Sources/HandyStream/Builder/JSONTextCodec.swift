import Foundation

/// The "type" a document is validated as: every value fits and none is kept.
package struct Validation {}

/// `JSONText`: any value, kept as compact text. Without `keepsText` it is validation: every value fits as a
/// `Validation` and none is kept (containers open a JSONTextFrame that keeps no text).
final class JSONTextCodec: ValueCodec, @unchecked Sendable {
    private let keepsText: Bool

    init(keepsText: Bool = true) {
        self.keepsText = keepsText
        super.init(valueType: keepsText ? JSONText.self : Validation.self)
    }

    private func text(_ body: (inout JSONWriter) -> Void, _ target: UnsafeMutableRawPointer, _ mode: StoreMode)
        -> Bool
    {
        guard keepsText else {
            ModelStorage.store(Validation(), at: target, mode: mode)
            return true
        }
        var writer = JSONWriter(options: EncodingOptions(maximumDepth: .max))
        body(&writer)
        ModelStorage.store(JSONText(bytes: writer.bytes), at: target, mode: mode)
        return true
    }

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool {
        text({ $0.null() }, target, mode)
    }
    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        text({ $0.bool(value) }, target, mode)
    }
    override func storeNumber(
        _ value: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        if keepsText, builder.options.allowsJSON5, let spelling = JSON5Text.spelling(value) {
            return text({ $0.numberText(spelling) }, target, mode)
        }
        return text({ $0.numberText(bytes: value) }, target, mode)
    }
    override func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        let verbatim = keepsText && builder.run.isVerbatim(bytes)
        return text({ $0.string(bytes: bytes.assumingMemoryBound(to: UInt8.self), verbatim: verbatim) }, target, mode)
    }
    override func openObject(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: true) {
            JSONTextFrame(opener: self, isObject: true, keepsText: keepsText)
        }
    }
    override func openArray(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: false) {
            JSONTextFrame(opener: self, isObject: false, keepsText: keepsText)
        }
    }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        guard keepsText else { return try super.write(source, to: &run) }
        run.writer.rawJSON(ModelStorage.load(JSONText.self, from: source).bytes)
    }
}

final class JSONTextFrame: Frame {
    private struct Level {
        var isObject: Bool
        /// Elements completed so far: the index of the one being read.
        var index = 0
        /// The last key read: `keyBytes[keyStart..<keyStart + keyLength]`.
        var keyStart = 0
        var keyLength = 0
    }

    private struct State {
        var writer = JSONWriter(options: EncodingOptions(maximumDepth: .max))
        var levels: [Level] = []
        /// The open objects' keys, end to end (each level's last, as inner levels close first); freed in `deinit`.
        var keyBytes = OutputBytes(capacity: 256)
    }

    /// Allocated and initialized by `init`, freed by `deinit`.
    private let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
    private let keepsText: Bool

    init(opener: ValueCodec, isObject: Bool, keepsText: Bool) {
        self.keepsText = keepsText
        state.initialize(to: State())
        super.init(opener: opener, isObject: isObject)
    }

    deinit {
        state.pointee.keyBytes.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    override func begin(_ builder: Builder) {
        state.pointee.writer.reset()
        state.pointee.levels.removeAll(keepingCapacity: true)
        state.pointee.keyBytes.removeAll()
        open(isObject)
    }

    private func open(_ object: Bool) {
        state.pointee.levels.append(Level(isObject: object, keyStart: state.pointee.keyBytes.count))
        guard keepsText else { return }
        if object { try? state.pointee.writer.beginObject() } else { try? state.pointee.writer.beginArray() }
    }

    @inline(__always)
    private func value(_ write: (inout JSONWriter) -> Void) -> Bool {
        let last = state.pointee.levels.count - 1
        let inArray = !state.pointee.levels[last].isObject
        if keepsText {
            if inArray { state.pointee.writer.element() }
            write(&state.pointee.writer)
        }
        if inArray { state.pointee.levels[last].index += 1 }
        return true
    }

    override func key(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        if keepsText { state.pointee.writer.key(bytes: bytes, verbatim: builder.run.isVerbatim(bytes)) }
        let last = state.pointee.levels.count - 1
        let start = state.pointee.levels[last].keyStart
        state.pointee.keyBytes.removeAll(keepingFirst: start)
        state.pointee.keyBytes.append(contentsOf: bytes)
        state.pointee.levels[last].keyLength = bytes.count
        return true
    }
    override func null(_ builder: Builder) -> Bool { value { $0.null() } }
    override func bool(_ flag: Bool, _ builder: Builder) -> Bool { value { $0.bool(flag) } }
    override func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        // JSON5's `NaN` and `Infinity` as the document spells them, which the same decoder reads back.
        if builder.options.allowsJSON5, let spelling = JSON5Text.spelling(text) {
            return value { $0.numberText(spelling) }
        }
        return value { $0.numberText(bytes: text) }
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        let verbatim = builder.run.isVerbatim(bytes)
        return value { $0.string(bytes: bytes.assumingMemoryBound(to: UInt8.self), verbatim: verbatim) }
    }
    override func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? {
        if keepsText && state.pointee.levels.last?.isObject == false { state.pointee.writer.element() }
        open(isObject)
        return .passUnretained(self)
    }
    override func finish(_ builder: Builder) -> Bool {
        let level = state.pointee.levels.removeLast()
        if keepsText { if level.isObject { state.pointee.writer.endObject() } else { state.pointee.writer.endArray() } }
        let last = state.pointee.levels.count - 1
        if last >= 0 && !state.pointee.levels[last].isObject { state.pointee.levels[last].index += 1 }
        return true
    }
    /// An inner container of this same frame has closed: nothing to move.
    override func childFinished(_ child: Frame, _ builder: Builder) -> Bool { true }
    /// The container's text, or for validation (``JSONTextCodec`` keeping no text) a `Validation`.
    override func moveValue(to target: UnsafeMutableRawPointer, mode: StoreMode) {
        guard keepsText else { return ModelStorage.store(Validation(), at: target, mode: mode) }
        ModelStorage.store(JSONText(bytes: state.pointee.writer.bytes), at: target, mode: mode)
    }
    override func takeAny() -> Any { keepsText ? JSONText(bytes: state.pointee.writer.bytes) : Validation() }
    override func appendPosition(to path: inout String) {
        for level in state.pointee.levels {
            if level.isObject {
                if level.keyLength > 0 {
                    let bytes = state.pointee.keyBytes.buffer[level.keyStart..<level.keyStart + level.keyLength]
                    path += "." + String(decoding: bytes, as: UTF8.self)
                }
            } else {
                path += "[\(level.index)]"
            }
        }
    }
}
