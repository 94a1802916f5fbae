@_spi(Reflection) import Swift

/// One stored property of a struct or class, as the Swift runtime's reflection reports it.
struct StoredProperty {
    /// The name as stored: a `lazy var x` is stored as `$__lazy_storage_$_x`, a property wrapper as `_x`.
    var storedName: String
    var offset: Int
    var type: Any.Type
    /// `false` for `weak` and `unowned` references, which `_forEachField` reports like strong optionals: storing a
    /// strong reference into one would corrupt memory, so they are never written.
    var isStrong: Bool
    /// `false` for `let`: writing into a `let` with an initial value is undefined behaviour (the optimizer may keep
    /// the literal), so `let` properties are never decoded. They are written when encoding.
    var isVar: Bool

    private static let lazyStoragePrefix = "$__lazy_storage_$_"

    var isLazy: Bool { storedName.hasPrefix(Self.lazyStoragePrefix) }

    /// The name users wrote, which is also the default JSON key: `lazy var x` is decoded as `x`.
    var name: String {
        storedName.hasPrefix(Self.lazyStoragePrefix)
            ? String(storedName.dropFirst(Self.lazyStoragePrefix.count)) : storedName
    }

    /// The stored properties of `type`, superclasses' first, or `nil`. Names, offsets and types come from
    /// `_forEachField(of:options:)`; strength and mutability from the runtime call it makes per field but does not pass
    /// on.
    static func of(_ type: Any.Type) -> [StoredProperty]? {
        let isClass = type is AnyClass
        // `_EachFieldOptions.classType` is a mutable static, which Swift 6 refuses; its raw value is the same option.
        let options = isClass ? _EachFieldOptions(rawValue: 1 << 0) : []
        var properties: [StoredProperty] = []
        let complete = _forEachField(of: type, options: options) { name, offset, fieldType, _ in
            properties.append(
                StoredProperty(
                    storedName: String(cString: name), offset: offset, type: fieldType, isStrong: true, isVar: true))
            return true
        }
        guard complete, properties.count == _runtimeFieldCount(type) else { return nil }
        for index in properties.indices {
            var flags = _RuntimeFieldFlags()
            _ = _runtimeFieldMetadata(type, index: index, fieldMetadata: &flags)
            defer { flags.freeName?(flags.name) }
            properties[index].isStrong = flags.isStrong
            properties[index].isVar = flags.isVar
        }
        return properties
    }
}

extension StoredProperty {
    static func isFunction(_ type: Any.Type) -> Bool {
        if kind(type) == .function { return true }
        if isOptional(type), let optional = type as? any ContainerMarker.Type {
            return isFunction(optional.elementType)
        }
        return false
    }

    /// Whether `type` is an `Optional`, by its metadata's kind: cheaper than a failed cast to ``ContainerMarker``.
    static func isOptional(_ type: Any.Type) -> Bool { kind(type) == .optional }

    private static func kind(_ type: Any.Type) -> _MetadataKind? { _MetadataKind(rawValue: _runtimeMetadataKind(type)) }
}

// The runtime's reflection entry points, declared as the standard library's ReflectionMirror.swift declares them.
private typealias _NameFreeFunction = @convention(c) (UnsafePointer<CChar>?) -> Void

private struct _RuntimeFieldFlags {
    var name: UnsafePointer<CChar>? = nil
    var freeName: _NameFreeFunction? = nil
    var isStrong = false
    var isVar = false
}

/// The runtime call behind the standard library's `_MetadataKind(_:)`, which is internal.
@_silgen_name("swift_getMetadataKind")
private func _runtimeMetadataKind(_ type: Any.Type) -> UInt

@_silgen_name("swift_reflectionMirror_recursiveCount")
private func _runtimeFieldCount(_ type: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func _runtimeFieldMetadata(
    _ type: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<_RuntimeFieldFlags>
) -> Any.Type
