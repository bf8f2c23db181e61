import Foundation
import PackagePlugin

/// Embeds files from the package root into the target as Swift string constants
/// (`EmbeddedResources.files`): the seed (`seed/*.json`) into CatalogueCore, each engine's
/// migrations (`migrations/*.sql`, `migrations/postgres/*.sql`) into its module, and the web
/// page (`Sources/CatalogueServer/Page/*`) into the server.
///
/// The files stay the single source of truth: the plugin regenerates
/// `EmbeddedResources.swift` in its work directory each time SwiftPM runs it, rewriting it only
/// when a file changed. SwiftPM runs it when it plans a build (a fresh build, a changed manifest,
/// source files added or removed), not on every build: a file edited in place is embedded once
/// `Package.swift` is touched (measured with Swift 6.3: an edited migration stayed out of three
/// incremental builds and was in the one after `touch Package.swift`). Embedding (rather than bundling resources) means an installed `catalogue` binary, or
/// an app that links CatalogueKit, carries its schema and seed with it. The plugin writes the file
/// itself (no helper executable), so the package also builds with `--sanitize=fuzzer`, where every
/// executable would get libFuzzer's `main`.
@main
struct EmbedResourcesPlugin: BuildToolPlugin {
    /// The folders, relative to the package root, and the file extensions embedded from each,
    /// per target.
    static let sourcesByTarget: [String: [(folder: String, fileExtension: String)]] = [
        "CatalogueCore": [("seed", "json")],
        "CatalogueSQLite": [("migrations", "sql")],
        "CataloguePostgres": [("migrations/postgres", "sql")],
        "CatalogueServer": [("Sources/CatalogueServer/Page", "")],
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var files: [(path: String, contents: String)] = []
        guard let sources = Self.sourcesByTarget[target.name] else {
            throw EmbedError(message: "no embedded files are defined for target \(target.name)")
        }
        for source in sources {
            let folder = root.appending(path: source.folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let wanted = names.filter { name in
                source.fileExtension.isEmpty ? !name.hasPrefix(".") : name.hasSuffix("." + source.fileExtension)
            }
            for name in wanted.sorted() {
                let url = folder.appending(path: name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                    continue
                }
                if source.folder.hasPrefix("migrations"), !Self.isMigrationFileName(name) {
                    throw EmbedError(message: "\(source.folder)/\(name) is not named NNNN_name.sql (four or more digits, an underscore, letters, digits or underscores)")
                }
                guard let text = String(data: try Data(contentsOf: url), encoding: .utf8) else {
                    throw EmbedError(message: "\(url.path) is not UTF-8")
                }
                files.append((source.folder + "/" + name, text))
            }
        }
        let directory = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = directory.appending(path: "EmbeddedResources.swift")
        let generated = Data(Self.source(embedding: files).utf8)
        if (try? Data(contentsOf: output)) != generated {
            try generated.write(to: output, options: .atomic)
        }
        return [
            .prebuildCommand(
                displayName: "Embedding \(files.count) files into \(target.name)",
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                arguments: ["true"],
                outputFilesDirectory: directory),
        ]
    }

    /// Whether `name` is `NNNN_name.sql`, as `Migration(fileName:sql:)` requires: checked here so a
    /// bad name fails the build instead of the first open.
    static func isMigrationFileName(_ name: String) -> Bool {
        guard name.hasSuffix(".sql") else { return false }
        let parts = name.dropLast(4).split(separator: "_", maxSplits: 1)
        guard parts.count == 2, parts[0].count >= 4, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), !parts[1].isEmpty else {
            return false
        }
        return parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// The Swift source declaring `EmbeddedResources.files` and `EmbeddedResources.sha256`.
    ///
    /// The SHA-256 of each migration is computed here, at build time, with the same `SHA256` the
    /// library uses (`SHA256.swift` is a link to `Sources/DatabaseCore/SHA256.swift`): a migration's
    /// checksum is compared with the database's on every open, and hashing the migrations at run
    /// time cost about 5 % of a cold `catalogue search`.
    static func source(embedding files: [(path: String, contents: String)]) -> String {
        var output = """
            // Generated by EmbedResourcesPlugin from the files listed below. Do not edit.

            enum EmbeddedResources {
                /// (path relative to the package root, UTF-8 contents), in build order.
                static let files: [(path: String, contents: String)] = [

            """
        for file in files {
            output += "        (path: \(swiftLiteral(file.path)), contents: \(swiftLiteral(file.contents))),\n"
        }
        output += """
                ]

                /// The SHA-256 of each migration's UTF-8 contents (64 lowercase hexadecimal digits), by
                /// path, computed at build time.
                static let sha256: [String: String] = [

            """
        let migrations = files.filter { $0.path.hasPrefix("migrations/") }
        for file in migrations {
            output += "        \(swiftLiteral(file.path)): \(swiftLiteral(SHA256.hexDigest(of: Array(file.contents.utf8)))),\n"
        }
        output += migrations.isEmpty ? "    :]\n}\n" : "    ]\n}\n"
        return output
    }

    /// A Swift string literal for `text`, escaping everything that could end or alter it.
    static func swiftLiteral(_ text: String) -> String {
        var literal = "\""
        literal.reserveCapacity(text.utf8.count + text.utf8.count / 8 + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    literal += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    literal.unicodeScalars.append(scalar)
                }
            }
        }
        literal += "\""
        return literal
    }
}

struct EmbedError: Error, CustomStringConvertible {
    let message: String
    var description: String { "EmbedResourcesPlugin: \(message)" }
}
