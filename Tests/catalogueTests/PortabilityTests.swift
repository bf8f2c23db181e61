import Foundation
import Testing

/// The package builds on macOS as well as Linux (Package.swift declares macOS 15). This machine
/// cannot compile for Darwin, so this reads the sources for what breaks there: a C library
/// imported without the other platform's branch, or called by its module's name outside the
/// files that hold both spellings.
@Suite("Portability: Glibc and Darwin")
struct PortabilityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file of `Sources/` and `Tests/`, by path relative to the repository.
    static func swiftFiles() throws -> [(path: String, lines: [String])] {
        var files: [(String, [String])] = []
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in enumerator where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                let relative = String(url.path.dropFirst(root.path.count + 1))
                files.append((relative, text.components(separatedBy: "\n")))
            }
        }
        return files
    }

    @Test("Every `import Glibc` sits in `#if canImport(Glibc)` with an `#elseif canImport(Darwin)` / `import Darwin` branch")
    func guardedImports() throws {
        let files = try Self.swiftFiles()
        #expect(files.count > 100)
        for (path, lines) in files {
            for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces) == "import Glibc" {
                let around = lines[max(0, index - 1)...min(lines.count - 1, index + 2)].map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(around == ["#if canImport(Glibc)", "import Glibc", "#elseif canImport(Darwin)", "import Darwin"], "\(path):\(index + 1)")
            }
        }
    }

    @Test("Calls spelled by the C library's module name, and Glibc-only struct layouts, stay in files that spell both")
    func platformSpellings() throws {
        for (path, lines) in try Self.swiftFiles() where !path.hasSuffix("PortabilityTests.swift") {
            let code = lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            if code.contains("Glibc.") {
                #expect(code.contains("Darwin."), "\(path) calls Glibc.… without a Darwin.… branch")
            }
            if code.contains("__sigaction_handler") {
                #expect(code.contains("__sigaction_u"), "\(path) sets a sigaction handler the Glibc way only")
            }
            if code.contains("posix_spawn_file_actions_t()") {
                #expect(code.contains("posix_spawn_file_actions_t?"), "\(path) makes posix_spawn actions the Glibc way only")
            }
            #expect(!code.contains("stack_t(ss_sp:"), "\(path): stack_t's fields are in another order in Darwin")
            #expect(!code.contains(", environ)"), "\(path): environ is not visible in Swift on Darwin")
        }
        // The tool's platform differences live in one file.
        let tool = try Self.swiftFiles().filter { $0.path.hasPrefix("Sources/CatalogueCommands/") }
        let spelling = tool.filter { $0.lines.contains { $0.contains("Glibc.") } }.map(\.path)
        #expect(spelling == ["Sources/CatalogueCommands/Platform.swift"])
    }
}
