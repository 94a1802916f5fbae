@testable import HandyStream
import HandyJSON
import Foundation
import Testing

final class Friend: @unchecked Sendable {
    var name = "friend"
}

struct WithReferences: HandyJSON {
    var id = 0
    weak var weakFriend: Friend?
    unowned(unsafe) var unsafeFriend: Friend = sharedFriend
    var strongFriendName = ""
}

let sharedFriend = Friend()

final class ClassWithReferences: HandyJSON {
    var id = 0
    weak var delegate: Friend?
    unowned var owner: Friend = sharedFriend
    required init() {}
}

struct WithLet: HandyJSON {
    let constant = 7
    let constantString = "fixed"
    var variable = 0
}

struct WithLazy: HandyJSON {
    lazy var computedOnce: Int = 3
    var plain = 0
}

struct NotAModel {
    var x = 0
}

struct WithUndecodable: HandyJSON {
    var id = 0
    var plain = NotAModel()
    var callback: (() -> Void)?
}

final class Node: HandyJSON {
    var value = 0
    var children: [Node] = []
    var parent: Node?
    required init() {}
}

/// Only ever reached through `[LateNode]` first.
final class LateNode: HandyJSON {
    var value = 0
    var children: [LateNode] = []
    required init() {}
}

@Suite("Field tables")
struct FieldTableTests {
    @Test("Stored properties come from the runtime, with offsets that match the real layout")
    func storedProperties() throws {
        let properties = try #require(StoredProperty.of(Owner.self))
        #expect(properties.map(\.name) == ["name", "age"])
        #expect(properties[0].offset == MemoryLayout<Owner>.offset(of: \Owner.name))
        #expect(properties[1].offset == MemoryLayout<Owner>.offset(of: \Owner.age))
        let classProperties = try #require(StoredProperty.of(Kitten.self))
        #expect(classProperties.map(\.name) == ["name", "legs", "indoor", "ageInWeeks"])
    }

    @Test("weak and unowned references are never written, in structs and in classes")
    func weakAndUnowned() throws {
        let json =
            #"{"id": 3, "weakFriend": {"name": "x"}, "unsafeFriend": {}, "strongFriendName": "s", "delegate": 1, "owner": {}}"#
        let model = try #require(WithReferences.deserialize(from: json))
        #expect(model.id == 3)
        #expect(model.weakFriend == nil)
        #expect(model.unsafeFriend === sharedFriend)
        #expect(model.strongFriendName == "s")
        let object = try #require(ClassWithReferences.deserialize(from: json))
        #expect(object.id == 3)
        #expect(object.delegate == nil)
        #expect(object.owner === sharedFriend)
        let flags = try #require(StoredProperty.of(ClassWithReferences.self))
        #expect(flags.map(\.isStrong) == [true, false, false])
    }

    @Test("let properties keep the value init() gives them")
    func letProperties() throws {
        let model = try #require(
            WithLet.deserialize(from: #"{"constant": 99, "constantString": "changed", "variable": 5}"#))
        #expect(model.constant == 7)
        #expect(model.constantString == "fixed")
        #expect(model.variable == 5)
    }

    @Test("lazy var is decoded under the name users wrote")
    func lazyProperties() throws {
        var model = try #require(WithLazy.deserialize(from: #"{"computedOnce": 42, "plain": 1}"#))
        #expect(model.computedOnce == 42)
        #expect(model.plain == 1)
        var untouched = try #require(WithLazy.deserialize(from: #"{"plain": 1}"#))
        #expect(untouched.computedOnce == 3)
    }

    @Test("A property type that can't be decoded is reported by the throwing API, and left alone by HandyJSON's")
    func undecodableProperties() throws {
        let json = #"{"id": 1, "plain": {"x": 2}}"#
        let model = try #require(WithUndecodable.deserialize(from: json))
        #expect(model.id == 1)
        #expect(model.plain.x == 0)
        expectError(.invalidModel) { try ModelDecoder().decode(WithUndecodable.self, from: json) }
        do {
            _ = try ModelDecoder().decode([WithUndecodable].self, from: "[]")
            Issue.record("expected a declaration error")
        } catch let error as JSONDecodingError {
            #expect(
                error.description == """
                    Array<WithUndecodable> can't be decoded:
                      - WithUndecodable.plain: a property of type NotAModel can't be decoded; make the type HandyJSON or \
                    HandyJSONEnum, or exclude the property in mapping(mapper:)
                    """)
        }
    }

    @Test("Recursive models")
    func recursive() throws {
        let json =
            #"{"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}, {"value": 4}], "parent": {"value": 0}}"#
        let node = try #require(Node.deserialize(from: json))
        #expect(node.value == 1)
        #expect(node.children.map(\.value) == [2, 4])
        #expect(node.children[0].children.map(\.value) == [3])
        #expect(node.parent?.value == 0)
    }

    @Test("A container of a recursive model, asked for before the model itself")
    func containerBeforeRecursiveModel() throws {
        let nodes = try ModelDecoder().decode(
            [LateNode].self, from: #"[{"value": 1, "children": [{"value": 2, "children": [{}]}]}]"#)
        #expect(nodes.first?.children.first?.value == 2)
        #expect(nodes.first?.children.first?.children.count == 1)
    }

    @Test("Key lookup matches bytes exactly")
    func keyLookup() throws {
        let codec = try #require(TypeRegistry.codec(for: Numbers.self).codec as? ModelCodec<Numbers>)
        let table = try #require(codec.table)
        func index(_ key: String) -> Int {
            var key = key
            return key.withUTF8 { table.slotIndex(forKey: UnsafeRawBufferPointer($0)) }
        }
        #expect(table.slots[index("uint16")].name == "uint16")
        #expect(table.slots[index("nsNumber")].name == "nsNumber")
        #expect(index("uint1") == -1)
        #expect(index("UINT16") == -1)
        #expect(index("") == -1)
        #expect(index("uint16 ") == -1)
    }

    @Test("Many threads building and using the same and different tables at once")
    func concurrentUse() async throws {
        let json = #"{"value": 1, "children": [{"value": 2}], "parent": {"value": 5}}"#
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<64 {
                group.addTask {
                    switch task % 5 {
                    case 4:
                        // A transform that keeps state, shared by every thread through the type's table.
                        let model = Counted.deserialize(from: #"{"value": "7"}"#)
                        return model?.value == 7 && model?.toJSONString() == #"{"value":"7"}"#
                    case 0: return Node.deserialize(from: json)?.children.first?.value == 2
                    case 1: return Page<Owner>.deserialize(from: #"{"items": [{"age": 7}]}"#)?.items.first?.age == 7
                    case 2: return (try? ModelDecoder().decode([String: [Int]].self, from: #"{"a": [1]}"#))?["a"] == [1]
                    default: return Kitten.deserialize(from: #"{"ageInWeeks": 3, "name": "k"}"#)?.name == "k"
                    }
                }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 64)
        #expect(results.allSatisfy { $0 })
        // 12 decodings and 12 encodings, none lost to a race.
        #expect(CallLog.shared.calls == 24)
    }
}

/// Counts calls without a lock of its own: the transform's callers must not race.
final class CallLog: @unchecked Sendable {
    static let shared = CallLog()
    var calls = 0
}

struct Counted: HandyJSON {
    var value = 0
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.value
            <-- TransformOf<Int, String>(
                fromJSON: { text in
                    CallLog.shared.calls += 1
                    return text.flatMap { Int($0) }
                },
                toJSON: { value in
                    CallLog.shared.calls += 1
                    return value.map { String($0) }
                })
    }
}

@Suite("Field table keys")
struct FieldTableKeyTests {
    /// Keys of every length from 0 to 80 (past the 63 bytes where key lengths share one bit of the length filter),
    /// each found at its slot, with and without a prediction; keys absent from the table — of a length some key has,
    /// differing in any one byte, and of lengths no key has — are not found.
    @Test("Keys of every length are found, and absent keys are not")
    func everyLength() {
        let codec = ValueCodec(valueType: Int.self)
        let lengths = Array(0...80).filter { $0 % 7 != 3 }  // lengths 3, 10, 17, … have no key
        let keys = lengths.map { length in (0..<length).map { UInt8(ascii: "a") + UInt8(($0 * 7 + length) % 26) } }
        let slots = keys.indices.map { FieldTable.Slot(name: "p\($0)", key: "p\($0)", offset: $0 * 8, codec: codec) }
        let table = FieldTable(
            modelName: "Model", isClass: false, slots: slots,
            keys: keys.enumerated().map { FieldTable.Key(bytes: $1, slot: $0, priority: 0) })
        func lookup(_ key: [UInt8], predicted: Int = .max) -> Int {
            key.withUnsafeBytes { table.slotIndex(forKey: $0, predicted: predicted) }
        }
        for (slot, key) in keys.enumerated() {
            #expect(lookup(key) == slot, "\(key.count) bytes")
            #expect(lookup(key, predicted: slot) == slot, "\(key.count) bytes, predicted")
            #expect(lookup(key, predicted: (slot + 1) % keys.count) == slot, "\(key.count) bytes, mispredicted")
            for position in key.indices {
                var other = key
                other[position] ^= 0x20
                #expect(lookup(other) == -1, "\(key.count) bytes, byte \(position) changed")
                #expect(lookup(other, predicted: slot) == -1, "\(key.count) bytes, byte \(position), predicted")
            }
        }
        for length in 0...90 where !lengths.contains(length) {
            #expect(lookup(Array(repeating: UInt8(ascii: "q"), count: length)) == -1, "\(length) bytes")
        }
    }

    /// Arrays and dictionaries of a model are made by code its own module compiled for it: the finishing is found
    /// and is of that very type (a subclass's, not its base's), so it is used; other element types have none.
    @Test func containerFinishingOfModels() {
        #expect(ContainerFinishing<Owner>.ofModel != nil)
        #expect(ContainerFinishing<Kitten>.ofModel != nil)
        #expect(ContainerFinishing<Cat>.ofModel != nil)
        #expect(ContainerFinishing<[Owner]>.ofModel == nil)
        #expect(ContainerFinishing<Int>.ofModel == nil)
    }
}
