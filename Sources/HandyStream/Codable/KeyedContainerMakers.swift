/// The keyed-container makers of a decoder or an encoder, one per key type: a maker's method reads the container
/// type and its conformance from the maker's own class (``TapeKeyedContainerMaker``, ``TreeKeyedContainerMaker``),
/// where code generic over the key type would ask the runtime for both on every container.
///
/// Found by key type in a ``TypeTable``, whose references are unretained (`owned` holds the makers). The caller
/// casts what it finds to the maker of its key type, which is what was kept under that key type's identity.
struct KeyedContainerMakers {
    private var table = TypeTable<Unmanaged<AnyObject>>()
    private var owned: [AnyObject] = []
    /// The makers that reclaim pooled containers when a root value is decoded or a value written
    /// (KeyedContainerPool.swift, ``TreeKeyedContainerMaker``).
    private(set) var reclaimers: [any KeyedContainerReclaiming] = []

    /// The maker kept for the key type `key`.
    @inline(__always)
    func maker(for key: ObjectIdentifier) -> Unmanaged<AnyObject>? { table.value(for: key) }

    /// Keeps `maker` for the key type `key`, and hands it back.
    mutating func keep<Maker: AnyObject>(_ maker: Maker, for key: ObjectIdentifier) -> Maker {
        store(maker, for: key)
        return maker
    }

    /// Keeps a `maker` that pools containers for the key type `key`, among the ``reclaimers`` too.
    mutating func keep<Maker: KeyedContainerReclaiming>(_ maker: Maker, for key: ObjectIdentifier) -> Maker {
        reclaimers.append(maker)
        store(maker, for: key)
        return maker
    }

    private mutating func store(_ maker: AnyObject, for key: ObjectIdentifier) {
        owned.append(maker)
        table.insert(.passUnretained(maker), for: key)
    }
}
