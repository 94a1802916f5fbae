import Foundation
import HandyJSON
import Testing

// MARK: - Models covering every property type

struct Numbers: HandyJSON {
    var int = -1
    var int8: Int8 = -1
    var int16: Int16 = -1
    var int32: Int32 = -1
    var int64: Int64 = -1
    var uint: UInt = 1
    var uint8: UInt8 = 1
    var uint16: UInt16 = 1
    var uint32: UInt32 = 1
    var uint64: UInt64 = 1
    var float: Float = -1
    var double: Double = -1
    var bool = false
    var string = "default"
    var nsString: NSString = "default"
    var nsNumber: NSNumber = -1
    var decimal: Decimal = -1
}

final class NumbersClass: HandyJSON {
    var int = -1
    var int64: Int64 = -1
    var uint64: UInt64 = 1
    var double: Double = -1
    var bool = false
    var string = "default"
    var decimal: Decimal = -1
    required init() {}
}

struct Optionals: HandyJSON {
    var int: Int?
    var double: Double?
    var string: String?
    var bool: Bool?
    var implicitlyUnwrapped: Int!
    var withDefault: Int? = 5
    var nested: Owner?
    var nestedClass: Shelter?
}

struct Owner: HandyJSON, Equatable {
    var name = ""
    var age = 0
}

final class Shelter: HandyJSON {
    var name = ""
    var owners: [Owner] = []
    required init() {}
}

enum Species: String, HandyJSONEnum { case cat, dog }
enum Legs: Int, HandyJSONEnum { case two = 2, four = 4 }
enum Weight: Double, HandyJSONEnum { case light = 1.5, heavy = 10.25 }

struct Containers: HandyJSON {
    var ints: [Int] = []
    var optionalInts: [Int?] = []
    var set: Set<String> = []
    var matrix: [[Double]] = []
    var byName: [String: Int] = [:]
    var nestedDictionary: [String: [String: [Int]]] = [:]
    var owners: [Owner] = []
    var ownersByName: [String: Owner] = [:]
    var shelters: [Shelter] = []
    var optionalOwners: [Owner?] = []
    var species: Species = .cat
    var speciesList: [Species] = []
    var legs: Legs?
    var weight: Weight = .light
}

struct Loose: HandyJSON {
    var any: Any?
    var anyDefault: Any = "untouched"
    var list: [Any] = []
    var object: [String: Any] = [:]
    var objects: [[String: Any]] = []
}

struct Page<Item: HandyJSON>: HandyJSON {
    var total = 0
    var items: [Item] = []
}

class Animal: HandyJSON {
    var name = ""
    var legs = 0
    required init() {}
}

class Cat: Animal {
    var indoor = false
    required init() { super.init() }
}

final class Kitten: Cat {
    var ageInWeeks = 0
    required init() { super.init() }
}

// MARK: - Tests

@Suite("Property types")
struct PropertyTypeTests {
    @Test("Every number type from numbers")
    func numbersFromNumbers() throws {
        let json = """
            {"int": -9223372036854775808, "int8": -128, "int16": 32767, "int32": -2147483648,
             "int64": 9223372036854775807, "uint": 18446744073709551615, "uint8": 255, "uint16": 65535,
             "uint32": 4294967295, "uint64": 18446744073709551615, "float": 3.5, "double": 5e-324, "bool": true,
             "string": 12345678901234567890, "nsString": "ns", "nsNumber": 42, "decimal": 3.14159265358979323846}
            """
        let model = try #require(Numbers.deserialize(from: json))
        #expect(model.int == Int.min)
        #expect(model.int8 == -128)
        #expect(model.int16 == 32767)
        #expect(model.int32 == Int32.min)
        #expect(model.int64 == Int64.max)
        #expect(model.uint == UInt.max)
        #expect(model.uint8 == 255)
        #expect(model.uint16 == 65535)
        #expect(model.uint32 == UInt32.max)
        #expect(model.uint64 == UInt64.max)
        #expect(model.float == 3.5)
        #expect(model.double == 5e-324)
        #expect(model.bool == true)
        #expect(model.string == "12345678901234567890")
        #expect(model.nsString == "ns")
        #expect(model.nsNumber == 42)
        #expect(model.decimal == Decimal(string: "3.14159265358979323846"))
    }

    @Test("Strings holding numbers fill number properties")
    func numbersFromStrings() throws {
        let json =
            #"{"int": "42", "int8": "-7", "uint64": "18446744073709551615", "double": "1.5e3", "float": "0.25", "bool": "TRUE", "decimal": "10.01", "nsNumber": "7"}"#
        let model = try #require(Numbers.deserialize(from: json))
        #expect(model.int == 42)
        #expect(model.int8 == -7)
        #expect(model.uint64 == UInt64.max)
        #expect(model.double == 1500)
        #expect(model.float == 0.25)
        #expect(model.bool == true)
        #expect(model.decimal == Decimal(string: "10.01"))
        #expect(model.nsNumber == 7)
    }

    @Test("Values that don't fit keep the default")
    func mismatchesKeepDefaults() throws {
        let json = """
            {"int": 1.5, "int8": 300, "uint": -1, "uint8": "256", "int64": "12x", "double": 1e400, "float": 1e39,
             "bool": "yes", "string": {"nested": true}, "int16": [1], "int32": null, "decimal": "abc"}
            """
        let model = try #require(Numbers.deserialize(from: json))
        #expect(model.int == -1)
        #expect(model.int8 == -1)
        #expect(model.uint == 1)
        #expect(model.uint8 == 1)
        #expect(model.int64 == -1)
        #expect(model.double == -1)
        #expect(model.float == -1)
        #expect(model.bool == false)
        #expect(model.string == "default")
        #expect(model.int16 == -1)
        #expect(model.int32 == -1)
        #expect(model.decimal == -1)
    }

    @Test(
        "Bool accepts the forms HandyJSON accepts",
        arguments: [
            (#"true"#, true), (#"false"#, false), (#""true""#, true), (#""False""#, false), (#""1""#, true),
            (#""0""#, false), ("1", true), ("0", false), ("2.5", true), ("0.0", false),
        ])
    func bools(json: String, expected: Bool) throws {
        let model = try #require(Numbers.deserialize(from: #"{"bool": \#(json)}"#))
        #expect(model.bool == expected)
        let flipped = try #require(Numbers.deserialize(from: #"{"bool": \#(json), "string": \#(json)}"#))
        #expect(flipped.bool == expected)
    }

    @Test("Numbers and Booleans fill String properties with their text")
    func stringsFromScalars() throws {
        #expect(Numbers.deserialize(from: #"{"string": -0.0}"#)?.string == "-0.0")
        #expect(Numbers.deserialize(from: #"{"string": 1e400}"#)?.string == "1e400")
        #expect(Numbers.deserialize(from: #"{"string": false}"#)?.string == "false")
        #expect(Numbers.deserialize(from: #"{"string": "caf\u00e9 😀"}"#)?.string == "café 😀")
    }

    @Test("Class models decode the same way")
    func classModel() throws {
        let json =
            #"{"int": "5", "int64": -9223372036854775808, "uint64": 18446744073709551615, "double": -0.0, "bool": 1, "string": 3, "decimal": 2.5}"#
        let model = try #require(NumbersClass.deserialize(from: json))
        #expect(model.int == 5)
        #expect(model.int64 == .min)
        #expect(model.uint64 == .max)
        #expect(model.double == 0 && model.double.sign == .minus)
        #expect(model.bool)
        #expect(model.string == "3")
        #expect(model.decimal == 2.5)
    }

    @Test("Optionals: values, null, and mismatches")
    func optionals() throws {
        let json =
            #"{"int": 1, "double": "2.5", "string": null, "bool": "nope", "implicitlyUnwrapped": 7, "withDefault": null, "nested": {"name": "Ann", "age": 30}, "nestedClass": {"name": "Home", "owners": [{"name": "Bo"}]}}"#
        let model = try #require(Optionals.deserialize(from: json))
        #expect(model.int == 1)
        #expect(model.double == 2.5)
        #expect(model.string == nil)
        #expect(model.bool == nil)
        #expect(model.implicitlyUnwrapped == 7)
        #expect(model.withDefault == 5, "null leaves the default")
        #expect(model.nested == Owner(name: "Ann", age: 30))
        #expect(model.nestedClass?.name == "Home")
        #expect(model.nestedClass?.owners == [Owner(name: "Bo", age: 0)])
        let empty = try #require(Optionals.deserialize(from: "{}"))
        #expect(empty.int == nil && empty.nested == nil && empty.withDefault == 5)
    }

    @Test("Arrays, sets, dictionaries, nested to any depth")
    func containers() throws {
        let json = """
            {"ints": [1, "2", 3.5, null, 4], "optionalInts": [1, null, "x", 2], "set": ["a", "b", "a"],
             "matrix": [[1, 2], [3.5], []], "byName": {"a": 1, "b": "2", "c": "x"},
             "nestedDictionary": {"x": {"y": [1, 2]}}, "owners": [{"name": "A"}, 5, {"name": "B", "age": 3}],
             "ownersByName": {"z": {"name": "Z", "age": 9}}, "shelters": [{"name": "S", "owners": [{"age": 1}]}],
             "optionalOwners": [{"name": "O"}, null, 3], "species": "dog", "speciesList": ["cat", "bird", "dog"],
             "legs": 4, "weight": 10.25}
            """
        let model = try #require(Containers.deserialize(from: json))
        #expect(model.ints == [1, 2, 4], "elements that don't fit are dropped")
        #expect(model.optionalInts == [1, nil, nil, 2], "for [T?] they become nil")
        #expect(model.set == ["a", "b"])
        #expect(model.matrix == [[1, 2], [3.5], []])
        #expect(model.byName == ["a": 1, "b": 2])
        #expect(model.nestedDictionary == ["x": ["y": [1, 2]]])
        #expect(model.owners == [Owner(name: "A", age: 0), Owner(name: "B", age: 3)])
        #expect(model.ownersByName == ["z": Owner(name: "Z", age: 9)])
        #expect(model.shelters.count == 1 && model.shelters[0].owners == [Owner(name: "", age: 1)])
        #expect(model.optionalOwners == [Owner(name: "O", age: 0), nil, nil])
        #expect(model.species == .dog)
        #expect(model.speciesList == [.cat, .dog], "unknown raw values are dropped")
        #expect(model.legs == .four)
        #expect(model.weight == .heavy)
    }

    @Test("Arrays of every length: literal-sized, reserved and appended, moved at once")
    func arraysOfEveryLength() throws {
        // Arrays are made three ways by length (up to 8, up to 16 for common element types, longer), and differently
        // for element types the library names (specialized) and the rest: every length on both sides of each bound.
        struct Lists: HandyJSON {
            var ints: [Int] = [-1]
            var strings: [String] = ["default"]
            var doubles: [Double] = [-1]
            var pairs: [[Double]] = []
            var owners: [Owner] = []
            var optionals: [Int?] = []
            var values: [Any] = []
        }
        for count in 0...40 {
            let ints = Array(0..<count)
            let strings = ints.map { "item \($0) " + String(repeating: "é", count: $0) }
            let doubles = ints.map { Double($0) + 0.5 }
            let pairs = ints.map { [Double($0), -Double($0)] }
            let owners = ints.map { Owner(name: "o\($0)", age: $0) }
            let json = """
                {"ints": \(ints), "strings": [\(strings.map { "\"\($0)\"" }.joined(separator: ","))],
                 "doubles": \(doubles), "pairs": \(pairs),
                 "owners": [\(owners.map { #"{"name":"\#($0.name)","age":\#($0.age)}"# }.joined(separator: ","))],
                 "optionals": \(ints), "values": \(ints)}
                """
            let model = try #require(Lists.deserialize(from: json), "count \(count)")
            #expect(model.ints == ints, "count \(count)")
            #expect(model.strings == strings, "count \(count)")
            #expect(model.doubles == doubles, "count \(count)")
            #expect(model.pairs == pairs, "count \(count)")
            #expect(model.owners == owners, "count \(count)")
            #expect(model.optionals == ints.map { $0 }, "count \(count)")
            #expect(model.values.compactMap { $0 as? Int } == ints, "count \(count)")
            #expect(model.values.count == count)
        }
    }

    @Test("Dictionary values of the wrong shape are left out (nil for optional values), the rest kept")
    func dictionaryWrongShapes() throws {
        struct Maps: HandyJSON {
            var numbers: [String: Double] = [:]
            var optionals: [String: Int?] = [:]
        }
        let maps = try ModelDecoder().decode(
            Maps.self,
            from: """
                {"numbers": {"a": 1, "b": {"x": 1}, "c": [2], "d": 3},
                 "optionals": {"a": {"x": 1}, "b": 2, "c": [3]}}
                """)
        #expect(maps.numbers == ["a": 1, "d": 3])
        #expect(maps.optionals == ["a": nil, "b": 2, "c": nil])
    }

    @Test("A dictionary's duplicate keys: the last value wins, whatever the value type")
    func dictionaryDuplicateKeys() throws {
        struct Maps: HandyJSON {
            var numbers: [String: Int] = [:]
            var owners: [String: Owner] = [:]
            var lists: [String: [Int]] = [:]
        }
        let maps = try ModelDecoder().decode(
            Maps.self,
            from: """
                {"numbers": {"a": 1, "b": 2, "a": 3},
                 "owners": {"x": {"name": "first"}, "y": {"name": "other"}, "x": {"name": "second"}},
                 "lists": {"k": [1], "k": [2, 3], "m": []}}
                """)
        #expect(maps.numbers == ["a": 3, "b": 2])
        #expect(maps.owners.mapValues(\.name) == ["x": "second", "y": "other"])
        #expect(maps.lists == ["k": [2, 3], "m": []])
    }

    @Test("Arrays and dictionaries of models are made by code compiled for the model, subclasses' too")
    func containersOfModels() throws {
        struct Zoo: HandyJSON {
            var owners: [Owner] = []
            var kittens: [Kitten] = []
            var cats: [String: Cat] = [:]
            var many: [Owner] = []
        }
        let names = (0..<20).map { #"{"name": "o\#($0)"}"# }.joined(separator: ",")
        let zoo = try ModelDecoder().decode(
            Zoo.self,
            from: """
                {"owners": [{"name": "a"}, {"name": "b"}],
                 "kittens": [{"name": "k", "legs": 4, "indoor": true, "ageInWeeks": 9}],
                 "cats": {"c": {"name": "c", "indoor": true}, "d": {"name": "d"}},
                 "many": [\(names)]}
                """)
        #expect(zoo.owners.map(\.name) == ["a", "b"])
        #expect(zoo.kittens.count == 1 && zoo.kittens[0].ageInWeeks == 9 && zoo.kittens[0].indoor)
        #expect(zoo.kittens[0].legs == 4 && zoo.kittens[0].name == "k")
        #expect(zoo.cats.mapValues(\.indoor) == ["c": true, "d": false])
        #expect(zoo.many.map(\.name) == (0..<20).map { "o\($0)" })
    }

    @Test("An array of large models (over 1 KB each: its buffer starts at one element and grows) keeps every element")
    func arrayOfLargeModels() throws {
        struct Wide: HandyJSON {
            var id = 0
            var padding = InlineArray<130, Int>(repeating: 7)
            var name = ""
            var rest: [[Int]] = []
        }
        #expect(MemoryLayout<Wide>.stride > 1_000)
        let elements = (0..<50).map { #"{"id": \#($0), "name": "n\#($0)", "rest": [[\#($0)]]}"# }
        let wides = try ModelDecoder().decode([Wide].self, from: "[" + elements.joined(separator: ",") + "]")
        #expect(wides.map(\.id) == Array(0..<50))
        #expect(wides.map(\.name) == (0..<50).map { "n\($0)" })
        #expect(wides.map(\.rest) == (0..<50).map { [[$0]] })
        #expect(wides.allSatisfy { $0.padding[0] == 7 && $0.padding[129] == 7 })
    }

    @Test("An enum value that is not a case keeps the default")
    func unknownEnum() throws {
        let model = try #require(Containers.deserialize(from: #"{"species": "bird", "legs": 3, "weight": "x"}"#))
        #expect(model.species == .cat)
        #expect(model.legs == nil)
        #expect(model.weight == .light)
    }

    @Test("Any, [Any] and [String: Any] hold Foundation-style values")
    func anyValues() throws {
        let json = """
            {"any": {"a": [1, 2.5, "s", true, null, {"b": -3}], "big": 12345678901234567890, "f": 1.0},
             "list": [1, "two", [3]], "object": {"k": false}, "objects": [{"x": 1}, {"y": [null]}]}
            """
        let model = try #require(Loose.deserialize(from: json))
        let any = try #require(model.any as? [String: Any])
        let a = try #require(any["a"] as? [Any])
        #expect(a.count == 6)
        #expect(a[0] as? Int == 1)
        #expect(a[1] as? Double == 2.5)
        #expect(a[2] as? String == "s")
        #expect(a[3] as? Bool == true)
        #expect(a[4] is NSNull)
        #expect((a[5] as? [String: Any])?["b"] as? Int == -3)
        #expect(any["big"] as? Double == 12345678901234567890.0)
        #expect(any["f"] as? Double == 1.0)
        #expect(model.anyDefault as? String == "untouched")
        #expect(model.list.count == 3 && model.list[1] as? String == "two" && (model.list[2] as? [Any])?.count == 1)
        #expect(model.object["k"] as? Bool == false)
        #expect(model.objects.count == 2 && model.objects[0]["x"] as? Int == 1)
    }

    @Test("Generic models")
    func generics() throws {
        let page = try #require(
            Page<Owner>.deserialize(from: #"{"total": 2, "items": [{"name": "a"}, {"name": "b"}]}"#))
        #expect(page.total == 2)
        #expect(page.items.map(\.name) == ["a", "b"])
        let nested = try #require(
            Page<Page<Owner>>.deserialize(from: #"{"items": [{"total": 1, "items": [{"age": 4}]}]}"#))
        #expect(nested.items.first?.items.first?.age == 4)
    }

    @Test("A subclass decodes its own and its ancestors' properties")
    func inheritance() throws {
        let kitten = try #require(
            Kitten.deserialize(from: #"{"name": "Mia", "legs": 4, "indoor": true, "ageInWeeks": 9}"#))
        #expect(kitten.name == "Mia")
        #expect(kitten.legs == 4)
        #expect(kitten.indoor)
        #expect(kitten.ageInWeeks == 9)
        let animals = try #require([Cat].deserialize(from: #"[{"name": "A", "indoor": true}, {"legs": 3}]"#))
        #expect(animals.map { $0?.name } == ["A", ""])
        #expect(animals.map { $0?.legs } == [0, 3])
    }

    @Test("Duplicate keys: the last one wins, as in a dictionary")
    func duplicateKeys() throws {
        let model = try #require(Owner.deserialize(from: #"{"name": "first", "name": "second"}"#))
        #expect(model.name == "second")
    }
}
