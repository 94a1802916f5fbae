import Foundation

/// `NSArray`, `NSDictionary` and their mutable kinds, as HandyJSON decoded them: Foundation-style values, as for `Any`.
final class FoundationContainerCodec<Container: NSObject>: ValueCodec, @unchecked Sendable {
    private let anyCodec: AnyCodec
    private let isArray: Bool
    private let make: (Any) -> Container?

    init(anyCodec: AnyCodec, isArray: Bool, make: @escaping (Any) -> Container?) {
        self.anyCodec = anyCodec
        self.isArray = isArray
        self.make = make
        super.init(valueType: Container.self, storesFinishedFrames: true)
    }

    override func openObject(_ builder: Builder) -> Unmanaged<Frame>? { isArray ? nil : anyCodec.openObject(builder) }
    override func openArray(_ builder: Builder) -> Unmanaged<Frame>? { isArray ? anyCodec.openArray(builder) : nil }
    override func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        guard let container = make(frame.takeAny()) else { return false }
        ModelStorage.store(container, at: target, mode: mode)
        return true
    }
    override func storeReady(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder)
        -> Bool
    {
        guard type(of: value) is AnyClass, let container = value as? Container else { return false }
        ModelStorage.store(container, at: target, mode: mode)
        return true
    }
    override var expectation: String { isArray ? "an array" : "an object" }
    override func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        try AnyWriter.write(ModelStorage.load(Container.self, from: source), to: &run)
    }

}

enum FoundationContainers {
    static func codec(for type: Any.Type, anyCodec: @autoclosure () -> AnyCodec) -> ValueCodec? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(NSArray.self):
            FoundationContainerCodec<NSArray>(anyCodec: anyCodec(), isArray: true) {
                ($0 as? [Any]).map { NSArray(array: $0) }
            }
        case ObjectIdentifier(NSMutableArray.self):
            FoundationContainerCodec<NSMutableArray>(anyCodec: anyCodec(), isArray: true) {
                ($0 as? [Any]).map { NSMutableArray(array: $0) }
            }
        case ObjectIdentifier(NSDictionary.self):
            FoundationContainerCodec<NSDictionary>(anyCodec: anyCodec(), isArray: false) {
                ($0 as? [String: Any]).map { NSDictionary(dictionary: $0) }
            }
        case ObjectIdentifier(NSMutableDictionary.self):
            FoundationContainerCodec<NSMutableDictionary>(anyCodec: anyCodec(), isArray: false) {
                ($0 as? [String: Any]).map { NSMutableDictionary(dictionary: $0) }
            }
        default: nil
        }
    }
}
