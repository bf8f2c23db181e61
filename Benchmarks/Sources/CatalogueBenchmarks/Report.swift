import CatalogueKit
import Foundation

/// Turns workload results into the tables of BENCHMARKS.md.
struct Report {
    var sections: [String] = []

    mutating func add(_ result: WorkloadResult) {
        var lines = ["### \(result.title) — \(result.size.formatted()) products", ""]
        lines.append("| engine | p50 | p99 | min | max | samples | p50 vs \(result.anchor) |")
        lines.append("| --- | --- | --- | --- | --- | --- | --- |")
        let anchorMedian = result.samples(of: result.anchor)?.median ?? .nan
        for (engine, samples) in result.results {
            lines.append("| \(engine) | \(formatDuration(samples.median)) | \(formatDuration(samples.p99)) | "
                + "\(formatDuration(samples.min)) | \(formatDuration(samples.max)) | \(samples.count) | "
                + "\(formatRatio(samples.median / anchorMedian)) |")
        }
        if !result.notes.isEmpty {
            lines.append("")
            lines += result.notes
        }
        sections.append(lines.joined(separator: "\n"))
        print(lines.joined(separator: "\n") + "\n")
    }

    mutating func addText(_ text: String) {
        sections.append(text)
        print(text + "\n")
    }

    func markdown(header: String) -> String {
        ([header] + sections).joined(separator: "\n\n") + "\n"
    }
}

extension Int {
    func formatted() -> String {
        let digits = String(self)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}

/// Machine, toolchain and SQLite facts for the report header.
func environmentDescription(command: String) -> String {
    func shell(_ command: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        try? process.run()
        process.waitUntilExit()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let cpu = shell("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").trimmingCharacters(in: .whitespaces)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let memory = ProcessInfo.processInfo.physicalMemory / (1 << 30)
    let swift = shell("swift --version 2>&1 | head -1")
    let date = ISO8601DateFormatter().string(from: Date())
    return """
        - date: \(date)
        - machine: \(cpu), \(cores) cores, \(memory) GiB
        - toolchain: \(swift)
        - SQLite: \(CatalogueKit.Connection.sqliteVersion)
        - command: `\(command)`
        """
}
