/// A model that HandyStream can fill from JSON and write back to JSON: a plain struct or class with an empty `init()`.
///
/// No per-property code is needed. Properties keep the values their initializers give them unless the document says
/// otherwise, so defaults work as they read:
///
///     struct Cat: HandyJSON {
///         var id: Int64 = 0
///         var name = "unnamed"
///         var friends: [Cat] = []
///     }
///     let cat = Cat.deserialize(from: #"{"id": "12", "name": "Tom"}"#)   // id 12: strings adapt to numbers
///
/// Classes work the same way; a subclass of a `HandyJSON` class decodes its ancestors' properties too.
public protocol HandyJSON: EmptyInitializable {
    /// Makes a model with its default values: decoding starts from these.
    init()
    /// Called before any property is decoded.
    mutating func willStartMapping()
    /// Declares custom keys, transforms and exclusions; read once per type, when its field table is built.
    mutating func mapping(mapper: HelpingMapper)
    /// Called after the model's JSON object has been read completely.
    mutating func didFinishMapping()
    /// HandyStream's own, not for models to implement: how arrays and dictionaries of this model are made. The
    /// default, below, is compiled where the model is declared, with its concrete type, so that making them asks the
    /// runtime for no type metadata.
    static var _containerFinishing: Any { get }
}

extension HandyJSON {
    public mutating func willStartMapping() {}
    public mutating func mapping(mapper: HelpingMapper) {}
    public mutating func didFinishMapping() {}
    @inlinable
    public static var _containerFinishing: Any { ContainerFinishing<Self>() }
}

/// An enum decoded from, and written as, its raw value (`String`, an integer or a floating-point type).
///
///     enum Kind: String, HandyJSONEnum { case cat, dog }
public protocol HandyJSONEnum: RawRepresentable {}
