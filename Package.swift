// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "catalogue",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CatalogueKit", targets: ["CatalogueKit"]),
        .library(name: "CatalogueServer", targets: ["CatalogueServer"]),
        // The PostgreSQL engine: build with the PostgreSQL trait (see below), else it is empty.
        .library(name: "CataloguePostgres", targets: ["CataloguePostgres"]),
        .executable(name: "catalogue", targets: ["catalogue"]),
        // `catalogue serve`'s program, which `catalogue` runs for it: install it next to catalogue.
        .executable(name: "catalogue-server", targets: ["catalogue-server"]),
    ],
    traits: [
        // PostgreSQL support: the CataloguePostgres engine (postgres-nio, whose first build takes
        // minutes: BoringSSL, NIO), `--db postgres://…` in the CLI, and the tests on PostgreSQL.
        // Off by default so the quick start and `swift test` build no database driver or TLS:
        //   swift build --traits PostgreSQL        swift test --traits PostgreSQL
        //
        // It enables Server too: `--traits PostgreSQL` replaces the default traits, and a
        // PostgreSQL catalogue is the one most likely to be served.
        .trait(
            name: "PostgreSQL",
            description: "The PostgreSQL engine (CataloguePostgres, postgres-nio) and --db postgres://… in the CLI",
            enabledTraits: ["Server"]),
        // `catalogue serve` (CatalogueServer: Hummingbird, SwiftNIO). On by default; a build that
        // needs no server (CI's ThreadSanitizer run of the library suites) turns it off with
        // `--disable-default-traits` and builds no SwiftNIO. CatalogueKit never depends on it.
        .trait(
            name: "Server",
            description: "catalogue serve: the HTTP API and the search page (CatalogueServer, Hummingbird)"),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The HTTP server of `catalogue serve` (its default traits pull in swift-configuration,
        // which the server does not use).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Already in the graph through Hummingbird; named for NIOCore's IOError (ListenError).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Already in the graph through Hummingbird; named for the HTTP parts that Hummingbird's
        // channel passes (MalformedRequestHandler).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
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
        // The catalogue, engine-neutral: records, fetch requests and predicates, search rules,
        // sections and change sets, import and export, the engine protocol, the seed.
        .target(
            name: "CatalogueCore",
            dependencies: ["DatabaseCore"],
            plugins: ["EmbedResourcesPlugin"]
        ),
        // The SQLite engine: its dialect, connections, migrations, bulk import. The only
        // catalogue module that imports SQLiteStore.
        .target(
            name: "CatalogueSQLite",
            dependencies: ["CatalogueCore", "SQLiteStore"],
            plugins: ["EmbedResourcesPlugin"]
        ),
        // The PostgreSQL engine: its dialect, a connection pool (postgres-nio), migrations from
        // migrations/postgres, COPY imports, LISTEN/NOTIFY changes. Its sources compile only
        // with the PostgreSQL trait (`#if PostgreSQL`), and only then does it depend on
        // postgres-nio, so a build without the trait never builds NIO.
        .target(
            name: "CataloguePostgres",
            dependencies: [
                "CatalogueCore",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["PostgreSQL"])),
            ],
            plugins: ["EmbedResourcesPlugin"]
        ),
        // What an app imports: the core with SQLite, the embedded default engine.
        .target(
            name: "CatalogueKit",
            dependencies: ["CatalogueCore", "CatalogueSQLite", "SQLiteStore"]
        ),
        // `catalogue serve`: the JSON API, the change streams and the embedded search page, on
        // Hummingbird. Talks to the catalogue only through its engine-neutral async API. Its
        // sources compile only with the Server trait (`#if Server`, on by default).
        .target(
            name: "CatalogueServer",
            dependencies: [
                "CatalogueCore",
                "DatabaseCore",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                // Its connection limit and idle timeout (ConnectionLimit), which Hummingbird does not re-export.
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                // The HTTP parser's errors and the parts around them (MalformedRequestHandler);
                // built for Hummingbird anyway.
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
            ],
            exclude: ["Page"],
            plugins: ["EmbedResourcesPlugin"]
        ),
        // The command-line tool's commands, which its two programs share.
        .target(
            name: "CatalogueCommands",
            dependencies: [
                "CatalogueKit",
                .target(name: "CataloguePostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The command-line tool. It links no HTTP server: `catalogue serve` runs
        // catalogue-server, so that every other command starts without loading SwiftNIO.
        .executableTarget(
            name: "catalogue",
            dependencies: ["CatalogueCommands"]
        ),
        // `catalogue` with the HTTP server (CatalogueServer) linked in: the program of
        // `catalogue serve`.
        .executableTarget(
            name: "catalogue-server",
            dependencies: [
                "CatalogueCommands",
                "CatalogueKit",
                .target(name: "CatalogueServer", condition: .when(traits: ["Server"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Turns `migrations/*.sql` and `seed/*.json` into Swift string constants at build time,
        // so an installed binary and an embedding app carry them.
        .plugin(
            name: "EmbedResourcesPlugin",
            capability: .buildTool()
        ),
        // An app made of the documentation's examples (README, DocC), built like an app.
        .executableTarget(
            name: "EmbeddingExample",
            dependencies: ["CatalogueKit"],
            path: "Examples/EmbeddingExample"
        ),
        // Tests of the library as an embedding app uses it: public API only.
        .testTarget(
            name: "CatalogueKitEmbeddingTests",
            dependencies: ["CatalogueKit", "EmbeddingExample"]
        ),
        .testTarget(
            name: "DatabaseCoreTests",
            dependencies: ["DatabaseCore"]
        ),
        // A throwaway PostgreSQL server for tests (Debian's postgresql + postgresql-contrib), and
        // the running of a program (its two pipes read at once) that the other test targets use
        // too; a library under Tests/, for test targets only.
        .target(
            name: "PostgresTestSupport",
            path: "Tests/PostgresTestSupport"
        ),
        // Helpers several test targets share (a creation lock held as another process holds
        // it, byte-wise ordering, a seeded random generator, a change set replayed); a library
        // under Tests/, for test targets only.
        .target(
            name: "CatalogueTestSupport",
            dependencies: ["CatalogueKit"],
            path: "Tests/CatalogueTestSupport"
        ),
        .testTarget(
            name: "PostgresTestSupportTests",
            dependencies: ["PostgresTestSupport"]
        ),
        // migrations/postgres, checked on a real server through psql.
        .testTarget(
            name: "PostgresMigrationTests",
            dependencies: ["PostgresTestSupport"]
        ),
        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: ["SQLiteStore"]
        ),
        .testTarget(
            name: "CatalogueKitTests",
            dependencies: ["CatalogueKit", "CatalogueCore", "CatalogueSQLite", "CatalogueTestSupport", "PostgresTestSupport"]
        ),
        // The suites that run unchanged on every engine: SQLite always, PostgreSQL with the
        // PostgreSQL trait (`swift test --traits PostgreSQL`) where a test server can start.
        .testTarget(
            name: "CatalogueEngineTests",
            dependencies: [
                "CatalogueKit", "CatalogueTestSupport", "PostgresTestSupport",
                .target(name: "CataloguePostgres", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        // The PostgreSQL engine's own tests (dialect, connecting, migrations, COPY, LISTEN and
        // its fallback, crashes); empty without the PostgreSQL trait.
        .testTarget(
            name: "CataloguePostgresTests",
            dependencies: [
                "CatalogueKit", "PostgresTestSupport",
                .target(name: "CataloguePostgres", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        .testTarget(
            name: "CatalogueServerTests",
            dependencies: [
                "CatalogueServer",
                "CatalogueKit",
                // Not HummingbirdTesting: its HTTP client (AsyncHTTPClient, TLS, HTTP/2,
                // BoringSSL) took three minutes of every build; the tests have their own client.
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                // EmbeddedChannel, for the channel handlers' tests.
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
            ]
        ),
        // The commands, in process and as the built programs (catalogue, catalogue-server).
        .testTarget(
            name: "catalogueTests",
            dependencies: ["CatalogueCommands", "CatalogueTestSupport", "PostgresTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
