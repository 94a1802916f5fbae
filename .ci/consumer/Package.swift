// swift-tools-version: 6.1
// A package that uses HandyStream as its users do, by path, without the integration traits, in Swift 6 language mode
// with complete concurrency checking and warnings as errors. `.ci/consumer-check.sh` copies it out, points it at this
// checkout (REPOSITORY_PATH, REPOSITORY_IDENTITY), builds and runs it, and checks that no networking was resolved or
// built.
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(path: "REPOSITORY_PATH")],
    targets: [
        .executableTarget(
            name: "Consumer", dependencies: [.product(name: "HandyStream", package: "REPOSITORY_IDENTITY")],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
    ],
    swiftLanguageModes: [.v6]
)
