import ArgumentParser

@main
struct HandyStreamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handystream",
        abstract: "Decode JSON into Swift models with HandyStream, and measure it.",
        subcommands: [Bench.self, Extract.self, Validate.self, Generate.self]
    )
}
