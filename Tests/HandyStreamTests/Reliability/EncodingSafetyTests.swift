import Foundation
@testable import HandyStream
import HandyJSON
import Testing

/// Runs `body` on a thread with a 256 KiB stack, as small as Dispatch and Task threads can be.
func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    onThread(stackSize: 256 << 10, body)
}

/// Runs `body` on a thread with a 64 MiB stack: for tests that build values nested thousands deep, which the Swift
/// runtime frees recursively (a test's own thread may have a stack of 512 KiB).
func onLargeStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    onThread(stackSize: 64 << 20, body)
}

func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let value = body()
        result.withLock { $0 = value }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return result.withLock { $0! }
}

/// Lends a value that is not `Sendable` to another thread that only reads it, and takes it back: the lender frees
/// it, whichever thread lets go of the box last.
final class Lent<Value>: @unchecked Sendable {
    private(set) var value: Value?
    init(_ value: Value) { self.value = value }
    func takeBack() { value = nil }
}

final class Link: HandyJSON {
    var name = ""
    var next: Link?
    required init() {}
}

final class AnyHolder: HandyJSON {
    var any: Any?
    required init() {}
}

struct SelfPlain: HandyJSONCustomTransformable {
    static func _transform(from object: Any) -> SelfPlain? { SelfPlain() }
    func _plainValue() -> Any? { self }
}

struct HoldsSelfPlain: HandyJSON {
    var value = SelfPlain()
}

struct ExactNumbers: HandyJSON {
    var big: UInt64 = .max
    var decimal = Decimal(string: "123456789012345678901234567890")!
    var float: Float = 0.1
    var small: Int8 = -3
    var double = 0.1
    var number: NSNumber = NSNumber(value: true)
    var nested: [String: [UInt64]] = ["a": [UInt64.max]]
}

@Suite("Encoding without recursion")
struct EncodingSafetyTests {
    @Test("A cyclic class graph is an error at the cap, on a 256 KiB stack")
    func cyclicGraph() {
        let message = onSmallStack { () -> String in
            let link = Link()
            link.next = link
            defer { link.next = nil }
            do {
                _ = try ModelEncoder().encode(link)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(message == "nesting deeper than 512 levels (a cycle in the object graph?)")
        let nilString = onSmallStack { () -> Bool in
            let link = Link()
            link.next = link
            defer { link.next = nil }
            return link.toJSONString() == nil && link.toJSON() == nil
        }
        #expect(nilString)
    }

    @Test("A cyclic object inside Any, and a 511-deep [Any], on a 256 KiB stack")
    func cyclicAny() {
        let failed = onSmallStack { () -> Bool in
            let holder = AnyHolder()
            holder.any = [holder]
            defer { holder.any = nil }
            return (try? ModelEncoder().encode(holder)) == nil
        }
        #expect(failed)
        // Built and freed on a thread with room (freeing nested arrays recurses in the runtime), encoded on the small
        // one.
        var nested: Any = 1
        for _ in 0..<511 { nested = [nested] }
        let shallow = Lent(nested)
        let text = onSmallStack { () -> String? in try? ModelEncoder().encodeToString(shallow.value!) }
        shallow.takeBack()
        #expect(text == String(repeating: "[", count: 511) + "1" + String(repeating: "]", count: 511))
        let count = onLargeStack { () -> Int? in
            var value: Any = 1
            for _ in 0..<20_000 { value = [value] }
            let deep = Lent(value)
            value = 0
            defer { deep.takeBack() }
            return onSmallStack { () -> Int? in
                try? ModelEncoder(options: EncodingOptions(maximumDepth: .max)).encode(deep.value!).count
            }
        }
        #expect(count == 40_001)
    }

    @Test("A _plainValue() that returns itself is an error, not an endless recursion")
    func selfReturningPlainValue() {
        let message = onSmallStack { () -> String in
            do {
                _ = try ModelEncoder().encode(HoldsSelfPlain())
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            message == "SelfPlain._plainValue() does not lead to a JSON value after 512 steps (it returns a "
                + "value of type SelfPlain)")
    }

    @Test("toJSON keeps every number in its own type")
    func exactToJSON() throws {
        let json = try #require(ExactNumbers().toJSON())
        #expect(json["big"] as? UInt64 == .max)
        #expect(json["decimal"] as? Decimal == Decimal(string: "123456789012345678901234567890"))
        #expect(json["float"] as? Float == 0.1)
        #expect(type(of: json["float"]!) == Float.self)
        #expect(json["small"] as? Int8 == -3)
        #expect(json["double"] as? Double == 0.1)
        #expect(json["number"] as? Bool == true)
        #expect((json["nested"] as? [String: Any])?["a"].flatMap { $0 as? [Any] }?.first as? UInt64 == .max)
        // The text is unchanged.
        #expect(ExactNumbers().toJSONString()?.contains(#""big":18446744073709551615"#) == true)
        #expect(ExactNumbers().toJSONString()?.contains(#""decimal":123456789012345678901234567890"#) == true)
    }
}

@Suite struct DictionaryInputDepthTests {
    /// `[Any]` nested 300 deep, replayed as events on a 128 KiB thread: the replay walks it with a stack of its
    /// own, as JSON text is read (it recursed, and crashed there).
    @Test func deepFoundationValuesOnASmallStack() {
        let outcome = onThread(stackSize: 128 << 10) { () -> String in
            var value: Any = 1
            for _ in 0..<300 { value = [value] }
            let object: [String: Any] = ["deep": value]
            let decoded = try? ModelDecoder().decode([String: Any].self, fromJSONObject: object)
            var depth = 0
            var current: Any? = decoded?["deep"]
            while let array = current as? [Any] {
                depth += 1
                current = array.first
            }
            return "\(depth) \(String(describing: current))"
        }
        #expect(outcome == "300 Optional(1)")
    }
}

/// A model and a Codable type that contain each other.
struct MutualModel: HandyJSON, Codable {
    var inner: MutualInner?
    var level = 0
}

final class MutualInner: Codable {
    var model: MutualModel?
}

@Suite struct StackBudgetTests {
    static func mutual(_ depth: Int) -> String {
        var json = #"{"level": 0}"#
        for level in 1...depth { json = #"{"level": \#(level), "inner": {"model": \#(json)}}"# }
        return json
    }

    static func levels(_ model: MutualModel?) -> Int {
        var count = 0
        var current = model
        while let next = current?.inner?.model {
            count += 1
            current = next
        }
        return count
    }

    /// 200 levels of a model and a Codable type inside each other on a 256 KiB thread: decoded whole or refused as
    /// too deep, never cut short by a lenient fallback, in both APIs and both modes.
    @Test func mutualNestingIsWholeOrRefused() {
        let json = Self.mutual(200)
        let outcomes = onSmallStack { () -> [String] in
            var outcomes: [String] = []
            let handy = MutualModel.deserialize(from: json)
            outcomes.append(handy.map { "\(Self.levels($0)) levels" } ?? "nil")
            for strict in [false, true] {
                do {
                    let model = try ModelDecoder(options: DecodingOptions(strict: strict)).decode(
                        MutualModel.self, from: json)
                    outcomes.append("\(Self.levels(model)) levels")
                } catch let error as DecodingError {
                    let kind = (error.context?.underlyingError as? JSONDecodingError)?.kind
                    outcomes.append(kind == .tooDeep ? "refused" : "other: \(error)")
                } catch {
                    outcomes.append("other: \(error)")
                }
            }
            return outcomes
        }
        for outcome in outcomes {
            #expect(outcome == "200 levels" || outcome == "refused" || outcome == "nil", "\(outcomes)")
        }
        #expect(!outcomes.contains { $0.hasSuffix("levels") && $0 != "200 levels" })
    }

    /// A flat value on a 48 KiB thread decodes, as with JSONDecoder: the guard estimates from the stack used.
    /// (Under a sanitizer every frame is several times larger: `make test-asan` and `test-tsan` define SANITIZED.)
    @Test func flatValueOnATinyStack() {
        #if SANITIZED
        let size = 192 << 10
        #else
        let size = 48 << 10
        #endif
        let outcome = onThread(stackSize: size) { () -> String in
            let json = #"{"x": 1, "y": 2}"#
            let foundation = try? JSONDecoder().decode(StreamedPoint.self, from: Data(json.utf8))
            let ours = try? ModelDecoder().decode(StreamedPoint.self, from: json)
            let encoded = try? ModelEncoder().encode(StreamedPoint(x: 1, y: 2))
            return "\(String(describing: foundation)) \(String(describing: ours)) \(encoded?.count ?? -1)"
        }
        #expect(
            outcome
                == "Optional(HandyStreamTests.StreamedPoint(x: 1, y: 2)) Optional(HandyStreamTests.StreamedPoint(x: 1, y: 2)) 13"
        )
    }
}
