import ArgumentParser

@main
struct HandyStreamCommand: ParsableCommand {
    /// What `handystream --version` prints; raise it with each release.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "handystream",
        abstract: "Decode JSON into Swift models with HandyStream, and measure it.",
        discussion: """
            A file named - is standard input. Errors go to standard error, as FILE:line:column: message for bad \
            JSON and FILE: cannot read: reason for a file that cannot be read. Exit status: 0 when all went well; 1 \
            for bad input (JSON that is malformed or cut short, a path that is not in the document) and for input \
            or output that failed; 64 for a usage error (an unknown option, a value out of range, a path that is \
            not a path).
            """,
        version: Self.version,
        subcommands: [Bench.self, Extract.self, Validate.self, Generate.self]
    )
}
