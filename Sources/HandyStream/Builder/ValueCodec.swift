/// Whether a store writes over a live value (a model's property, which keeps its default when the store fails) or
/// into raw memory (an element being added to a container, which is dropped, or made `nil`, when it fails).
@usableFromInline
enum StoreMode {
    case assign
    case initialize
}

/// The commonest scalar types, whose values frames convert and store themselves, calling the conversion directly; a
/// value that doesn't convert takes the codec's route, which reports it. Only a codec of the type itself has a kind.
enum ScalarKind {
    case int
    case double
    case string
    case bool
    case other

    /// Stores a number token's value at `target` (asked for once the value is made) as its codec would, or `false`.
    @inline(__always)
    func storeNumber(
        _ text: UnsafeRawBufferPointer, at target: @autoclosure () -> UnsafeMutableRawPointer, mode: StoreMode
    ) -> Bool {
        switch self {
        case .double: Self.store(DoubleConversion.value(number: text), at: target, mode: mode)
        case .int: Self.store(IntegerConversion<Int>.value(number: text), at: target, mode: mode)
        default: false
        }
    }

    /// ``storeNumber(_:at:mode:)`` for a string event (whose bytes `run` may know to be ASCII).
    @inline(__always)
    func storeString(
        _ bytes: UnsafeRawBufferPointer, in run: DecodingRun, at target: @autoclosure () -> UnsafeMutableRawPointer,
        mode: StoreMode
    ) -> Bool {
        self == .string && Self.store(StringConversion.value(string: bytes, in: run), at: target, mode: mode)
    }

    @inline(__always)
    func storeBool(_ value: Bool, at target: @autoclosure () -> UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        self == .bool && Self.store(value, at: target, mode: mode)
    }

    @inline(__always)
    private static func store<Value>(
        _ value: consuming Value?, at target: () -> UnsafeMutableRawPointer, mode: StoreMode
    ) -> Bool {
        guard let value else { return false }
        ModelStorage.store(value, at: target(), mode: mode)
        return true
    }
}

/// How one Swift type is decoded from JSON events: one instance per type, immutable once published, shared by every
/// thread. Scalars are stored at a target address; a container opens a ``Frame`` whose value goes where it belongs
/// through ``storeValue(finishedIn:at:mode:)``. `false` means the event does not fit: the target is left as it was.
class ValueCodec: @unchecked Sendable {
    let valueType: Any.Type
    /// A ``TransformCodec``: its JSON value is made once per write (a transform is user code, called once).
    final var isTransform = false
    /// A ``ModelCodec``: the factory attributes a contained model's problems to the model that contains it.
    final var isModel = false
    let scalarKind: ScalarKind
    /// The class overrides ``store(finished:at:mode:)``; if not, a finished frame's value is moved directly.
    let storesFinishedFrames: Bool

    init(valueType: Any.Type, scalarKind: ScalarKind = .other, storesFinishedFrames: Bool = false) {
        self.valueType = valueType
        self.scalarKind = scalarKind
        self.storesFinishedFrames = storesFinishedFrames
    }

    func storeNull(at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool { false }
    func storeBool(_ value: Bool, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool {
        false
    }
    func storeNumber(
        _ text: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        false
    }
    func storeString(
        _ bytes: UnsafeRawBufferPointer, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder
    ) -> Bool {
        false
    }

    /// Stores an existing value (a model inside a `[String: Any]`, as HandyJSON took it); `false` for another type.
    func storeReady(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool {
        false
    }

    /// The builder's frame for the object starting now, or `nil`; nothing more, as ``ChildFrames`` reuses it uncalled.
    func openObject(_ builder: Builder) -> Unmanaged<Frame>? { nil }
    /// As ``openObject(_:)``, for an array.
    func openArray(_ builder: Builder) -> Unmanaged<Frame>? { nil }

    /// Moves the value built by `frame` to `target`, or calls ``store(finished:at:mode:)`` (``storesFinishedFrames``);
    /// `false`, `target` untouched, when the frame has none (a failed `init(from:)`).
    @inline(__always)
    final func storeValue(finishedIn frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        guard storesFinishedFrames else {
            frame.moveValue(to: target, mode: mode)
            return true
        }
        return store(finished: frame, at: target, mode: mode)
    }

    /// For classes that override it: a wrapped value, a set made of the array, a transform's result.
    func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        frame.moveValue(to: target, mode: mode)
        return true
    }

    /// An `Optional`: as an element or a root value, a misfit becomes `nil` (reported) where other types drop it.
    var isOptional: Bool { false }

    /// What the codec expects, for messages: "an integer", "a string", "an object".
    var expectation: String { "a value of type \(valueType)" }
    /// The codec of `Decodable` values (``DecodableCodec``; ``JSONValueCodec`` at the root): a pipeline decoding them
    /// throws `DecodingError`s. A property, not a protocol to test for: a conformance check is a slow look-up.
    var decodesCodableValues: Bool { false }

    // MARK: - Writing

    /// Writes the value at `source` as JSON: a scalar to `run`'s writer, a container as a cursor on `run`'s stack.
    func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        throw JSONEncodingError(message: "a value of type \(valueType) can't be written as JSON")
    }

    /// Whether the value at `source` is `nil`: a model leaves such properties out unless told to write `null`.
    func isNil(_ source: UnsafeRawPointer) -> Bool { false }
}
