// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "HandyStream",
    products: [
        .library(name: "HandyStream", targets: ["HandyStream"]),
        // Re-exports HandyStream so that code written for HandyJSON (`import HandyJSON`) builds unchanged.
        .library(name: "HandyJSON", targets: ["HandyJSON"]),
        // Empty unless the HTTP trait is enabled.
        .library(name: "HandyStreamHTTP", targets: ["HandyStreamHTTP"]),
        .executable(name: "handystream", targets: ["handystream"]),
    ],
    traits: [
        .trait(
            name: "HTTP",
            description: "The HandyStreamHTTP library: AsyncHTTPClient response bodies decoded as they arrive. "
                + "Off by default, so that users of HandyStream build no networking."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CYajl",
            path: "CSupport/CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"])]
        ),
        .target(name: "HandyStream", dependencies: ["CYajl"]),
        .target(name: "HandyJSON", dependencies: ["HandyStream"]),
        .target(
            name: "HandyStreamHTTP",
            dependencies: [
                "HandyStream",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["HTTP"])),
            ]
        ),
        .executableTarget(
            name: "handystream",
            dependencies: [
                "HandyStream",
                "CYajl",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Replays inputs normally; `make fuzz` builds it for libFuzzer.
        .executableTarget(name: "HandyStreamFuzz", dependencies: ["HandyStream"]),
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
    ],
    swiftLanguageModes: [.v6]
)
