// A process of its own for SmallStackTests: one call, the first of the process, on a thread with the stack size
// given; prints what it made. What a decode or an encode sets up once (type metadata, `Mirror`, lazy statics, the
// spare tape) is set up by the first call of a process, so a test process, which has long since made it, can't see
// what the first call costs on a small thread. Nothing else runs here before the call.
//
//     HandyStreamStackCheck decode|encode|foundation-decode|foundation-encode|deep-decode|deep-encode KIB
import Foundation
import HandyStream

struct Point: Codable {
    var x: Int
    var y: Int
}

indirect enum Nest: Codable, Sendable {
    case leaf
    case node([Nest])
}

/// What a call made: a decoded value, the bytes an encoder wrote, or an outcome in words. Described on the main
/// thread: describing a value the first time makes a `Mirror`, whose own set-up needs more stack than a decode.
enum Made {
    case value(Point)
    case bytes([UInt8])
    case text(String)
}

/// What the call's thread hands back.
final class Outcome: @unchecked Sendable {
    var made: Made?
}

let json = #"{"x": 1, "y": 2}"#
let deepJSON =
    String(repeating: #"{"node":{"_0":["#, count: 150) + #"{"leaf":{}}"# + String(repeating: "]}}", count: 150)

// Each call in a function of its own, so that the thread's first frames are small (an unoptimized build gives a
// function one frame for the locals of all its branches).
@inline(never) func decode() throws -> Point { try ModelDecoder().decode(Point.self, from: json) }
@inline(never) func foundationDecode() throws -> Point {
    try JSONDecoder().decode(Point.self, from: Data(json.utf8))
}
@inline(never) func encode() throws -> [UInt8] { try ModelEncoder().encode(Point(x: 1, y: 2)) }
@inline(never) func foundationEncode() throws -> [UInt8] { Array(try JSONEncoder().encode(Point(x: 1, y: 2))) }
@inline(never) func deepDecode() throws -> String {
    _ = try ModelDecoder().decode(Nest.self, from: deepJSON)
    return "decoded"
}
@inline(never) func deepEncode(_ deep: Nest) throws -> String {
    _ = try ModelEncoder().encode(deep)
    return "encoded"
}

/// Whether `error` is the too-deep error, as a `Decodable` value's decode throws it.
func isTooDeep(_ error: DecodingError) -> Bool {
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
        .dataCorrupted(let context):
        return (context.underlyingError as? JSONDecodingError)?.kind == .tooDeep
    @unknown default: return false
    }
}

@inline(never) func perform(_ call: String, deep: Nest) -> Made {
    do {
        switch call {
        case "decode": return .value(try decode())
        case "foundation-decode": return .value(try foundationDecode())
        case "encode": return .bytes(try encode())
        case "foundation-encode": return .bytes(try foundationEncode())
        case "deep-decode": return .text(try deepDecode())
        case "deep-encode": return .text(try deepEncode(deep))
        default: return .text("unknown call \(call)")
        }
    } catch let error as DecodingError where isTooDeep(error) {
        return .text("refused")
    } catch let error where "\(error)".contains("nests too deeply") {
        return .text("refused")
    } catch {
        return .text("error: \(error)")
    }
}

/// Runs `call` on a thread of `kib` KiB. An encoder's bytes are read back here, so that the two encoders are
/// compared by the value they wrote, whatever the order of its keys.
func run(_ call: String, kib: Int, deep: Nest) -> String {
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        outcome.made = perform(call, deep: deep)
        done.signal()
    }
    thread.stackSize = kib << 10
    thread.start()
    done.wait()
    switch outcome.made {
    case .value(let point)?: return "\(point)"
    case .bytes(let bytes)?:
        guard let point = try? JSONDecoder().decode(Point.self, from: Data(bytes)) else {
            return "unreadable: \(String(decoding: bytes, as: UTF8.self))"
        }
        return "\(point)"
    case .text(let text)?: return text
    case nil: return "nothing"
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let kib = Int(arguments[2]) else {
    print("usage: HandyStreamStackCheck CALL KIB")
    exit(2)
}
// Built here, not on the small thread: only the encode is measured there.
var deep = Nest.leaf
if arguments[1] == "deep-encode" {
    for _ in 0..<150 { deep = .node([deep]) }
}
print(run(arguments[1], kib: kib, deep: deep))
