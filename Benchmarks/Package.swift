// swift-tools-version:6.1
// The benchmark suite: CatalogueKit side by side with the raw SQLite C API, GRDB, the sqlite3
// shell and in-memory filtering. A separate package, so the library and the CLI never depend on
// it. Run: swift run -c release catalogue-benchmarks --help
import PackageDescription

let package = Package(
    name: "CatalogueBenchmarks",
    platforms: [.macOS(.v15)],
    traits: [
        // The PostgreSQL workloads (`--workloads postgres`): builds the root package's PostgreSQL
        // engine (postgres-nio, BoringSSL), so it is off by default and in CI's smoke run.
        .trait(name: "PostgreSQL", description: "The PostgreSQL workloads (Benchmarks/postgres.sh)"),
    ],
    dependencies: [
        .package(
            name: "catalogue", path: "..",
            traits: [.trait(name: "PostgreSQL", condition: .when(traits: ["PostgreSQL"]))]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The raw C API anchor, without CatalogueKit's layers.
        .systemLibrary(name: "CSQLiteBench", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "CatalogueBenchmarks",
            dependencies: [
                .product(name: "CatalogueKit", package: "catalogue"),
                .product(name: "GRDB", package: "GRDB.swift"),
                "CSQLiteBench",
                .product(name: "CataloguePostgres", package: "catalogue", condition: .when(traits: ["PostgreSQL"])),
            ],
            path: "Sources/CatalogueBenchmarks"
        ),
    ],
    swiftLanguageModes: [.v6]
)
