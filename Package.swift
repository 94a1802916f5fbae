// swift-tools-version: 6.0
import PackageDescription

import class Foundation.ProcessInfo

/// The HTTP integration pulls in AsyncHTTPClient and SwiftNIO; builds that don't need it (the sanitizer runs) can
/// leave it out with HANDYSTREAM_WITHOUT_HTTP=1. Users get it by default, and pay for it only if they use it.
let withHTTP = ProcessInfo.processInfo.environment["HANDYSTREAM_WITHOUT_HTTP"] == nil

let package = Package(
    name: "HandyStream",
    products: [
        .library(name: "HandyStream", targets: ["HandyStream"]),
        // Re-exports HandyStream so that code written for HandyJSON (`import HandyJSON`) builds unchanged.
        .library(name: "HandyJSON", targets: ["HandyJSON"]),
        .executable(name: "handystream", targets: ["handystream"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ] + (withHTTP ? [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ] : []),
    targets: [
        .systemLibrary(
            name: "CYajl",
            path: "CSupport/CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"])]
        ),
        .target(name: "HandyStream", dependencies: ["CYajl"]),
        .target(name: "HandyJSON", dependencies: ["HandyStream"]),
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
    ],
    swiftLanguageModes: [.v6]
)

if withHTTP {
    package.products.append(.library(name: "HandyStreamHTTP", targets: ["HandyStreamHTTP"]))
    package.targets += [
        .target(
            name: "HandyStreamHTTP",
            dependencies: ["HandyStream", .product(name: "AsyncHTTPClient", package: "async-http-client")]
        ),
        .testTarget(
            name: "HandyStreamHTTPTests",
            dependencies: [
                "HandyStreamHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
    ]
}
