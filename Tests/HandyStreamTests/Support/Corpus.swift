import Foundation

/// The bundled benchmark corpus (`Benchmarks/Corpus`), read from the repository.
enum Corpus {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Benchmarks/Corpus")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
