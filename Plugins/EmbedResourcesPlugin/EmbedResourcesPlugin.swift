import Foundation
import PackagePlugin

/// Embeds `migrations/*.sql` and `seed/*.json` from the package root into the target as Swift
/// string constants (`EmbeddedResources.files`).
///
/// The files stay the single source of truth; the generated source lives in the plugin's work
/// directory and is rebuilt whenever one of them changes. Embedding (rather than bundling them as
/// resources) means an installed `catalogue` binary, or an app that links CatalogueKit, carries
/// its schema and seed with it.
@main
struct EmbedResourcesPlugin: BuildToolPlugin {
    /// The folders, relative to the package root, and the file extensions embedded from each.
    static let sources: [(folder: String, fileExtension: String)] = [
        ("migrations", "sql"),
        ("seed", "json"),
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        for source in Self.sources {
            let folder = root.appending(path: source.folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            inputs += names
                .filter { $0.hasSuffix("." + source.fileExtension) }
                .sorted()
                .map { folder.appending(path: $0) }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) migration and seed files",
                executable: try context.tool(named: "EmbedResources").url,
                arguments: [output.path, root.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }
}
