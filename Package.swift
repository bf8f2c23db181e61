// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "catalogue",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CatalogueKit", targets: ["CatalogueKit"]),
        .executable(name: "catalogue", targets: ["catalogue"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The SQLite C API, from the system's libsqlite3 (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // What every engine shares: database values, rows read by index, migrations and their
        // rules. No engine code.
        .target(name: "DatabaseCore"),
        // The database layer: connections, statements, the statement cache, transactions,
        // migrations and errors. The only module that calls `sqlite3_*`.
        .target(
            name: "SQLiteStore",
            dependencies: ["CSQLite", "DatabaseCore"]
        ),
        // The catalogue: records, fetch requests, search, seed data.
        .target(
            name: "CatalogueKit",
            dependencies: ["SQLiteStore"],
            plugins: ["EmbedResourcesPlugin"]
        ),
        // The command-line tool.
        .executableTarget(
            name: "catalogue",
            dependencies: [
                "CatalogueKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Turns `migrations/*.sql` and `seed/*.json` into Swift string constants at build time,
        // so an installed binary and an embedding app carry them.
        .plugin(
            name: "EmbedResourcesPlugin",
            capability: .buildTool()
        ),
        .testTarget(
            name: "DatabaseCoreTests",
            dependencies: ["DatabaseCore"]
        ),
        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: ["SQLiteStore"]
        ),
        .testTarget(
            name: "CatalogueKitTests",
            dependencies: ["CatalogueKit"]
        ),
        .testTarget(
            name: "catalogueTests",
            dependencies: ["catalogue"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
