// swift-tools-version:6.1
// libFuzzer targets for the parts of catalogue that read untrusted text. Build and run with
// Fuzz/run.sh (swift build --sanitize=fuzzer). A separate package, so nothing else depends on it.
import PackageDescription

let package = Package(
    name: "CatalogueFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "catalogue", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "FuzzPredicateFormat",
            dependencies: [.product(name: "CatalogueKit", package: "catalogue")]),
        .executableTarget(
            name: "FuzzSearchText",
            dependencies: [.product(name: "CatalogueKit", package: "catalogue")]),
        .executableTarget(
            name: "FuzzCSVReader",
            dependencies: [.product(name: "CatalogueKit", package: "catalogue")]),
    ],
    swiftLanguageModes: [.v6]
)
