import Foundation
import HandyStream
import ArgumentParser

struct Probe: ParsableCommand {
    @Argument var files: [String]
    func run() throws {
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            do {
                _ = try ModelDecoder().decode(Any.self, from: data)
                print("ACCEPT \(file.split(separator: "/").last!)")
            } catch {
                print("REJECT \(file.split(separator: "/").last!) \(error)")
            }
        }
    }
}
