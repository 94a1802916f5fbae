// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "HandyStream",
    products: [
        .library(name: "HandyStream", targets: ["HandyStream"]),
        // HandyJSON's own calls, operators and transforms, and HandyStream re-exported: code written for HandyJSON
        // (`import HandyJSON`) builds unchanged.
        .library(name: "HandyJSON", targets: ["HandyJSON"]),
        // Each re-exports HandyStream; the integration itself is built only with its trait (HTTP, Vapor, Hummingbird).
        .library(name: "HandyStreamHTTP", targets: ["HandyStreamHTTP"]),
        .library(name: "HandyStreamVapor", targets: ["HandyStreamVapor"]),
        .library(name: "HandyStreamHummingbird", targets: ["HandyStreamHummingbird"]),
        .executable(name: "handystream", targets: ["handystream"]),
    ],
    traits: [
        .trait(
            name: "HTTP",
            description: "The HandyStreamHTTP library: AsyncHTTPClient response bodies decoded as they arrive. "
                + "Off by default, so that users of HandyStream build no networking."),
        .trait(
            name: "Vapor",
            description: "The HandyStreamVapor library: ModelDecoder and ModelEncoder as Vapor's content coders, "
                + "request bodies streamed. Off by default."),
        .trait(
            name: "Hummingbird",
            description: "The HandyStreamHummingbird library: ModelDecoder and ModelEncoder as Hummingbird's request "
                + "decoder and response encoder, request bodies streamed. Off by default."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        // Its default traits (swift-configuration support, full Foundation) are the app's to choose.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    ],
    targets: [
        // yajl from the system's development package, linked statically (module.modulemap): a build machine needs
        // libyajl-dev (Debian, Ubuntu) or yajl (Homebrew); a machine that only runs the binary needs nothing.
        .systemLibrary(
            name: "CYajl",
            path: "CSupport/CYajl",
            providers: [.apt(["libyajl-dev"]), .brew(["yajl"])]
        ),
        .target(name: "HandyStream", dependencies: ["CYajl"]),
        .target(name: "HandyJSON", dependencies: ["HandyStream"]),
        // The one NIO-facing piece the three integrations share: ByteBuffer and AsyncSequence-of-ByteBuffer input.
        .target(
            name: "HandyStreamNIO",
            dependencies: [
                "HandyStream",
                .product(
                    name: "NIOCore", package: "swift-nio", condition: .when(traits: ["HTTP", "Vapor", "Hummingbird"])),
            ]
        ),
        .target(
            name: "HandyStreamHTTP",
            dependencies: [
                "HandyStreamNIO",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["HTTP"])),
            ]
        ),
        .target(
            name: "HandyStreamVapor",
            dependencies: [
                "HandyStreamNIO",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
            ]
        ),
        .target(
            name: "HandyStreamHummingbird",
            dependencies: [
                "HandyStreamNIO",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ]
        ),
        // The command-line tool: its folder's name differs from the library's by more than case.
        .executableTarget(
            name: "handystream",
            dependencies: [
                "HandyJSON",
                "CYajl",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/HandyStreamCLI"
        ),
        // A process of its own for SmallStackTests: one call, the first of the process, on a thread of a given stack.
        .executableTarget(name: "HandyStreamStackCheck", dependencies: ["HandyStream"], path: "Tests/StackCheck"),
        // Replays inputs normally; `make fuzz` builds it for libFuzzer.
        .executableTarget(name: "HandyStreamFuzz", dependencies: ["HandyStream", "HandyJSON"]),
        // The fixtures are read from the repository at run time (#filePath), not bundled.
        .testTarget(name: "HandyStreamTests", dependencies: ["HandyStream", "HandyJSON"], exclude: ["Fixtures"]),
        // Runs with the HTTP trait (`make test` enables it); empty without.
        .testTarget(
            name: "HandyStreamHTTPTests",
            dependencies: [
                "HandyStreamHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["HTTP"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["HTTP"])),
            ]
        ),
        // What the two server tests share (a body made as it is sent, resident memory, a diagnostics collector).
        .target(
            name: "IntegrationSupport",
            dependencies: [
                "HandyJSON",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Vapor", "Hummingbird"])),
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(traits: ["Vapor", "Hummingbird"])),
            ],
            path: "Tests/IntegrationSupport"
        ),
        // Each runs a real server of its framework on loopback; empty without the trait (`make test-integrations`).
        .testTarget(
            name: "HandyStreamVaporTests",
            dependencies: [
                "HandyStreamVapor",
                "IntegrationSupport",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Vapor"])),
            ]
        ),
        .testTarget(
            name: "HandyStreamHummingbirdTests",
            dependencies: [
                "HandyStreamHummingbird",
                "IntegrationSupport",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Hummingbird"])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
