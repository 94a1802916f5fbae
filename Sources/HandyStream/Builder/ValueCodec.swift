/// Whether a store writes over a live value (a model's property, which keeps its default when the store fails) or
/// into raw memory (an element being added to a container, which is dropped, or made `nil`, when it fails).
@usableFromInline
enum StoreMode {
    case assign
    case initialize
}

/// The scalar types whose values the frames convert and store themselves, with the conversion's functions called
/// directly, where other types' values go through their codec's methods (a call through the codec's class table,
/// then one through a closure): the commonest property and element types, met on most events of most documents.
/// A value that doesn't convert takes the codec's route, which reports it. A codec's kind is its conversion's
/// (``ScalarConversion/kind``), and only a codec of the type itself has one (an `Optional`'s stores another layout).
enum ScalarKind {
    case int
    case double
    case string
    case bool
    case other

    /// Stores the value a number token makes at `target`, a value of this kind's type, as its codec would; `false`
    /// when it doesn't convert, or when this kind leaves numbers to the codec. `target` is asked only once the value
    /// is made (an element's slot, found after the conversion, keeps the conversion's registers free).
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

    /// ``storeNumber(_:at:mode:)`` for a Boolean.
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

/// How one Swift type is decoded from JSON events: one instance per type, built with the field tables, immutable
/// once published and shared by every thread.
///
/// Scalar events are stored directly at a target address. An object or array opens a ``Frame`` that builds a
/// value of the codec's type (or, for optionals and enums, of the type they wrap); when it ends, that value goes where
/// it belongs through ``storeValue(finishedIn:at:mode:)``. Each method returns `false` when the event does not
/// fit the type; the target is then left as it was (for optionals too: the frame decides whether that means `nil`).
class ValueCodec: @unchecked Sendable {
    /// The decoded type, for messages and frame reuse.
    let valueType: Any.Type
    /// A ``TransformCodec``: its JSON value is made once per write (a transform is user code, called once).
    final var isTransform = false
    /// A ``ModelCodec``: the factory attributes a contained model's problems to the model that contains it.
    final var isModel = false
    /// One of the scalar types frames store themselves, without calling the codec (``ScalarKind``).
    let scalarKind: ScalarKind
    /// Whether the class overrides ``store(finished:at:mode:)``: only then is it called, and otherwise the finished
    /// frame's value is moved to its target directly (what the method does here), without a call through the codec's
    /// class table at the end of every container.
    let storesFinishedFrames: Bool

    /// `storesFinishedFrames`: the class overrides ``store(finished:at:mode:)``.
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

    /// Stores a value that already exists (a model instance inside a `[String: Any]`, taken as it is, as HandyJSON
    /// did); `false` when it is not of this type.
    func storeReady(_ value: Any, at target: UnsafeMutableRawPointer, mode: StoreMode, _ builder: Builder) -> Bool {
        false
    }

    /// A frame that builds a value from the object starting now, or `nil` when an object does not fit the type.
    ///
    /// The frame is the builder's for this codec (or the codec it wraps) at the current depth
    /// (``Builder/frame(openedBy:isObject:make:)``), begun afresh, and nothing else happens: so a frame that opened a
    /// child with a codec hands the same child frame out again itself the next time (``ChildFrames``). A codec that
    /// must do more when a container opens can't be opened through ``ChildFrames``.
    func openObject(_ builder: Builder) -> Unmanaged<Frame>? { nil }
    /// A frame that builds a value from the array starting now, or `nil` when an array does not fit the type (as
    /// ``openObject(_:)``).
    func openArray(_ builder: Builder) -> Unmanaged<Frame>? { nil }

    /// Moves the value built by `frame` (opened by this codec) to `target`; `false` when the frame has no value
    /// because it did not fit (a `Decodable` value whose `init(from:)` failed), `target` then left as it was. The way
    /// every frame takes a child's value: the frame's value moved, or the codec's ``store(finished:at:mode:)`` when
    /// its class has one of its own (``storesFinishedFrames``).
    @inline(__always)
    final func storeValue(finishedIn frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        guard storesFinishedFrames else {
            frame.moveValue(to: target, mode: mode)
            return true
        }
        return store(finished: frame, at: target, mode: mode)
    }

    /// What ``storeValue(finishedIn:at:mode:)`` does for a class that overrides this (and says so at `init`, with
    /// `storesFinishedFrames`): a wrapped value, a set made of the array, a transform's result.
    func store(finished frame: Frame, at target: UnsafeMutableRawPointer, mode: StoreMode) -> Bool {
        frame.moveValue(to: target, mode: mode)
        return true
    }

    /// Whether the type is an `Optional`: as an element or a root value, a value that doesn't fit becomes `nil`
    /// (reported like any other fallback) where other types drop the element.
    var isOptional: Bool { false }

    /// What the codec expects, for messages: "an integer", "a string", "an object".
    var expectation: String { "a value of type \(valueType)" }
    /// The codec of `Decodable` values (``DecodableCodec``, and ``JSONValueCodec``, which `JSONValue` keeps at the
    /// root): a pipeline decoding them throws `DecodingError`s.
    /// (A property rather than a protocol to test for: asking the runtime whether an instance's class conforms to a
    /// protocol was a slow look-up, made on every decode.)
    var decodesCodableValues: Bool { false }

    // MARK: - Writing

    /// Writes the value at `source` (a value of this codec's type) as JSON: a scalar straight into `run`'s writer,
    /// a container by opening a cursor on `run`'s stack (never by calling another codec's `write`).
    func write(_ source: UnsafeRawPointer, to run: inout EncodingRun) throws {
        throw JSONEncodingError(message: "a value of type \(valueType) can't be written as JSON")
    }

    /// Whether the value at `source` is `nil`: a model leaves such properties out unless told to write `null`.
    func isNil(_ source: UnsafeRawPointer) -> Bool { false }
}
