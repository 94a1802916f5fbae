// swift-tools-version: 6.1
// The benchmark package: separate from the library's, so that users' builds never pull package-benchmark in.
// Run from this folder: `swift package benchmark` (see README.md here).
import PackageDescription

let package = Package(
    name: "HandyStreamBenchmarks",
    dependencies: [
        .package(name: "HandyStream", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "Decoding",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "HandyStream", package: "HandyStream"),
            ],
            path: "Benchmarks/Decoding",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
