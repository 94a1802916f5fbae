import Foundation

// The codec and frames of JSONValue: a value without a model, built by the one builder.

final class JSONValueCodec: ValueCodec, @unchecked Sendable {
    init() { super.init(valueType: JSONValue.self, storesFinishedFrames: true) }

    /// `JSONValue` is `Decodable`: at the root its errors are `DecodingError`s, as `JSONDecoder` throws them.
    override var decodesCodableValues: Bool { true }

    override func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool {
        ModelStorage.store(JSONValue.null, at: target, mode: mode)
        return true
    }
    override func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        ModelStorage.store(JSONValue.bool(value), at: target, mode: mode)
        return true
    }
    override func storeNumber(
        _ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        ModelStorage.store(JSONValue.number(builder.options.numberText(text)), at: target, mode: mode)
        return true
    }
    override func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        ModelStorage.store(JSONValue.string(String(jsonBytes: bytes)), at: target, mode: mode)
        return true
    }
    override func openObject(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: true) { JSONObjectFrame(opener: self) }
    }
    override func openArray(_ builder: Builder) -> Unmanaged<Frame>? {
        builder.frame(openedBy: self, isObject: false) {
            ArrayFrame<JSONValue>(opener: self, element: self, finishing: JSONValueCodec.finishing)
        }
    }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        let value: JSONValue
        if let object = frame as? JSONObjectFrame {
            value = .object(object.take())
        } else {
            value = .array(unsafeDowncast(frame, to: ArrayFrame<JSONValue>.self).take())
        }
        ModelStorage.store(value, at: target, mode: mode)
        return true
    }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        switch ModelStorage.load(JSONValue.self, from: source) {
        case .null: run.writer.null()
        case .bool(let flag): run.writer.bool(flag)
        case .number(let text):
            switch text {
            // JSON5's non-finite numbers are written as a `Double` is, under the options' rule (as `encode(to:)` does).
            case "NaN", "Infinity", "-Infinity": try run.writer.floatingPoint(Double(text)!)
            default: run.writer.numberText(text)
            }
        case .string(let text): run.writer.string(text)
        case .array(let elements): try openElements(elements, self, owner: self, on: &run)
        case .object(let members):
            try run.open(MembersCursor.self, owner: self, isObject: true) { MembersCursor(codec: self) }
                .start(keys: members.map(\.key), values: members.map(\.value))
        }
    }

    static let finishing = ArrayFinishing<JSONValue>.make(specialized: true)
}

/// An object's members in document order.
final class JSONObjectFrame: Frame {
    private var members: [JSONValue.Member] = []
    private var key = ""
    /// No key read yet in this object: the frame is reused, and the last object's key is no position in this one.
    private var hasKey = false
    private let valueSlot = UnsafeMutablePointer<JSONValue>.allocate(capacity: 1)

    init(opener: ValueCodec) { super.init(opener: opener, isObject: true) }
    deinit { valueSlot.deallocate() }

    private var codec: ValueCodec { opener }

    override func begin(_ builder: Builder) {
        members.removeAll(keepingCapacity: true)
        hasKey = false
    }
    override func key(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        key = String(jsonBytes: bytes)
        hasKey = true
        return true
    }
    private func add(_ stored: Bool) -> Bool {
        if stored { members.append(JSONValue.Member(key: key, value: valueSlot.move())) }
        return true
    }
    override func null(_ builder: Builder) -> Bool { add(codec.storeNull(at: valueSlot, mode: .initialize, builder)) }
    override func bool(_ value: Bool, _ builder: Builder) -> Bool {
        add(codec.storeBool(value, at: valueSlot, mode: .initialize, builder))
    }
    override func number(_ text: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        add(codec.storeNumber(text, at: valueSlot, mode: .initialize, builder))
    }
    override func string(_ bytes: UnsafeRawBufferPointer, _ builder: Builder) -> Bool {
        add(codec.storeString(bytes, at: valueSlot, mode: .initialize, builder))
    }
    override func openChild(isObject: Bool, _ builder: Builder) -> Unmanaged<Frame>? {
        children.open(0, with: openerReference, isObject: isObject, builder)
    }
    override func childFinished(_ child: Frame, _ builder: Builder) -> Bool {
        add(codec.storeValue(finishedIn: child, at: valueSlot, mode: .initialize))
    }
    func take() -> [JSONValue.Member] {
        defer { members.removeAll(keepingCapacity: true) }
        return members
    }
    override func takeAny() -> Any { JSONValue.object(take()) }
    override func appendPosition(to path: inout String) { if hasKey { path += "." + key } }
}
