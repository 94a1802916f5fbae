import Foundation
import HandyStream
import Testing
#if canImport(Glibc)
import Glibc
#endif

struct FileItem: Codable, Equatable, Sendable {
    var id: Int
    var name: String
}

/// Files read asynchronously: every element, the value at a path, a read error, and reads that wait off Swift's
/// cooperative pool.
@Suite struct AsyncFileTests {
    func temporaryFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "handystream-\(UUID().uuidString).json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func elementsAndValuesFromAFile() async throws {
        let items = (0..<5_000).map { #"{"id": \#($0), "name": "item \#($0)"}"# }.joined(separator: ",")
        let path = try temporaryFile(#"{"total": 5000, "items": [\#(items)]}"#)
        defer { unlink(path) }
        var count = 0
        for try await item in ModelDecoder().elements(of: FileItem.self, at: "items", fileAt: path, chunkSize: 1000) {
            #expect(item.id == count)
            count += 1
        }
        #expect(count == 5_000)
        #expect(try await ModelDecoder().decode(Int.self, fileAt: path, at: "total", chunkSize: 333) == 5_000)
        await expectError(.unreadable) {
            try await ModelDecoder().decode(Int.self, fileAt: path + ".missing")
        }
        await expectError(.unreadable) {
            try await ModelDecoder().decode(Int.self, fileAt: NSTemporaryDirectory())
        }
    }

    /// Six reads wait on pipes that a task of the same pool fills only later: were the reads blocking threads of the
    /// cooperative pool (as many as the machine has cores), that task could never run.
    ///
    /// The writing task may wait its turn behind other suites' tests, which hold the pool's threads while they run
    /// (minutes under the sanitizers): the time limit allows for that. Should the test still fail, a watchdog thread
    /// ends the six reads (opening each pipe and closing it: an empty document), so that the process can end, which
    /// it could not while a thread waits in `open`.
    @Test(.timeLimit(.minutes(5))) func readsWaitOffTheCooperativePool() async throws {
        let fifos = (0..<6).map { NSTemporaryDirectory() + "handystream-fifo-\($0)-\(UUID().uuidString)" }
        for fifo in fifos { #expect(mkfifo(fifo, 0o600) == 0) }
        let done = DispatchSemaphore(value: 0)
        let watchdog = Thread {
            guard done.wait(timeout: .now() + .seconds(270)) == .timedOut else { return }
            for fifo in fifos { close(open(fifo, O_WRONLY | O_NONBLOCK)) }
        }
        watchdog.start()
        defer {
            done.signal()
            for fifo in fifos { unlink(fifo) }
        }
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for fifo in fifos {
                group.addTask { try await ModelDecoder().decode([Int].self, fileAt: fifo).count }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(200))
                for fifo in fifos {
                    let descriptor = open(fifo, O_WRONLY)
                    let text = Array("[1, 2, 3]".utf8)
                    _ = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                    close(descriptor)
                }
                return 0
            }
            return try await group.reduce(0, +)
        }
        #expect(total == 18)
    }
}
