import Foundation
import Testing

/// The first decode and encode of a process, on small threads. What a decode or an encode sets up once (type
/// metadata, `Mirror`, lazy statics, the spare tape) is set up by the first call of a process, and this test process
/// made it long ago: each case runs in a fresh process, HandyStreamStackCheck (Tests/StackCheck), which `swift test`
/// builds beside the tests.
@Suite struct SmallStackTests {
    /// The program, found beside the test bundle (Linux runs the bundle itself; macOS loads it into `xctest`).
    static let program: URL? = {
        var folders = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return folders.map { $0.appendingPathComponent("HandyStreamStackCheck") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// What `call`, the first of a fresh process, made on a thread of `kib` KiB, or "crashed" with how it ended.
    static func firstCall(_ call: String, kib: Int) throws -> String {
        let program = try #require(Self.program, "HandyStreamStackCheck is built beside the tests")
        let process = Process()
        process.executableURL = program
        process.arguments = [call, String(kib)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .uncaughtSignal ? "signal" : "status"
            return "crashed (\(how) \(process.terminationStatus))"
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Wherever Foundation's coder, first in its process, decodes (encodes) a flat value, HandyStream's first call
    /// does too, with the same value. (Under a sanitizer only HandyStream's frames grow: its first call is checked on
    /// the thread `flatValueOnATinyStack` uses, as the sanitizer builds size it.)
    @Test(arguments: ["decode", "encode"])
    func flatValueFirstCall(_ direction: String) throws {
        #if SANITIZED
        #expect(try Self.firstCall(direction, kib: 192) == "Point(x: 1, y: 2)")
        #else
        var compared: [Int] = []
        for kib in [24, 28, 32, 36, 40, 48, 64] {
            let foundation = try Self.firstCall("foundation-\(direction)", kib: kib)
            if foundation.hasPrefix("crashed") { continue }
            #expect(foundation == "Point(x: 1, y: 2)")
            #expect(try Self.firstCall(direction, kib: kib) == foundation, "the first \(direction) on \(kib) KiB")
            compared.append(kib)
        }
        // Foundation's first call fits at 32 KiB: at least that size is compared.
        #expect(compared.contains(32), "sizes compared: \(compared)")
        #endif
    }

    /// A deep value is still refused with the too-deep error, never a crash, the first call of the process included:
    /// the set-up moves to a thread of its own, the decode and the encode stay on the caller's small stack.
    @Test(arguments: ["deep-decode", "deep-encode"])
    func deepValueFirstCallIsRefused(_ call: String) throws {
        #if SANITIZED
        let kib = 256
        #else
        let kib = 64
        #endif
        #expect(try Self.firstCall(call, kib: kib) == "refused")
    }
}
