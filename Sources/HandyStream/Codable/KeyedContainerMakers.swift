/// A decoder's or encoder's keyed-container makers, one per key type: a maker reads the container type and its
/// conformance from its own class, where code generic over the key would ask the runtime for both every time.
///
/// The table's references are unretained (``reclaimers`` holds the makers); a caller may cast what it finds under its
/// key type's identity to that key type's maker.
struct KeyedContainerMakers {
    private var table = TypeTable<Unmanaged<AnyObject>>()
    /// Told when a root value is decoded or a value written.
    private(set) var reclaimers: [any KeyedContainerReclaiming] = []

    @inline(__always)
    func maker(for key: ObjectIdentifier) -> Unmanaged<AnyObject>? { table.value(for: key) }

    mutating func keep<Maker: KeyedContainerReclaiming>(_ maker: Maker, for key: ObjectIdentifier) -> Maker {
        reclaimers.append(maker)
        table.insert(.passUnretained(maker), for: key)
        return maker
    }
}
