// swift-tools-version: 6.0
import PackageDescription

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
