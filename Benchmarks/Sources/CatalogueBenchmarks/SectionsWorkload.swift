import CatalogueKit
import Foundation

/// Sections at scale: the controller's performFetch + index titles (cold, then warm from the
/// section info cache), random object(at:), next to the raw `GROUP BY` of initial letters.
struct SectionsWorkload {
    let data: BenchmarkData
    let rounds: Int

    /// The raw SQL anchor: section titles and counts by `GROUP BY` over the indexed folded key.
    static let groupBySQL = """
        SELECT CASE WHEN substr(name_key, 1, 1) BETWEEN 'a' AND 'z' THEN upper(substr(name_key, 1, 1)) ELSE '#' END AS title,
               count(*) FROM product GROUP BY title
        """

    /// The argument that makes this executable run the controller alone and print its peak RSS.
    static let probeArgument = "--controller-rss-probe"

    /// Child-process mode: open the catalogue at `path`, fetch sections, read 1,000 random
    /// records, print the peak resident set size in bytes.
    static func runProbe(path: String) throws {
        var configuration = CatalogueKit.Configuration()
        configuration.readOnly = true
        let catalogue = try Catalogue(path: path, seed: false, configuration: configuration)
        let controller = SectionedResultsController(
            catalogue: catalogue, fetchRequest: CatalogueKit.FetchRequest<Product>(sortDescriptors: CatalogueKit.FetchSortDescriptor.byName))
        try controller.performFetch()
        _ = controller.sectionIndexTitles
        var generator = ProductGenerator(seed: 7)
        let sections = controller.sections
        for _ in 0..<1_000 {
            let section = Int(generator.next() % UInt64(sections.count))
            let row = Int(generator.next() % UInt64(sections[section].numberOfObjects))
            _ = try controller.object(at: ResultIndexPath(row: row, section: section))
        }
        print(peakResidentBytes())
    }

    /// The controller probe's peak RSS, measured by `ChildProcessRun` from outside the child.
    static func controllerPeakInChildProcess(path: String) throws -> Int {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let run = try ChildProcessRun.run(executable, [probeArgument, path])
        guard run.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "the controller probe failed: \(run.errorOutput)"])
        }
        return run.peakResidentBytes
    }

    func run() throws -> (results: [WorkloadResult], controllerPeak: Int) {
        var configuration = CatalogueKit.Configuration()
        configuration.readOnly = true
        let request = CatalogueKit.FetchRequest<Product>(sortDescriptors: CatalogueKit.FetchSortDescriptor.byName)

        // Cold: a new catalogue connection and controller each round (no cache, cold statements).
        var cold = Samples()
        var warm = Samples()
        var titles: [String] = []
        for _ in 0..<max(1, rounds / 4) {
            let catalogue = try Catalogue(path: data.path, seed: false, configuration: configuration)
            let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: request, cacheName: "bench")
            cold.append(try time {
                try controller.performFetch()
                titles = controller.sectionIndexTitles
            })
            // Warm: another controller with the same cache name over the unchanged database.
            for _ in 0..<rounds {
                let again = SectionedResultsController(catalogue: catalogue, fetchRequest: request, cacheName: "bench")
                warm.append(try time {
                    try again.performFetch()
                    titles = again.sectionIndexTitles
                })
            }
        }
        precondition(!titles.isEmpty)

        let raw = try RawSQLite(path: data.path)
        let groupBy = try raw.prepare(Self.groupBySQL)
        var rawGroupBy = Samples()
        for _ in 0..<max(1, rounds / 4) {
            rawGroupBy.append(time {
                groupBy.bind([])
                while groupBy.step() {}
            })
        }

        // Random object(at:) on a fresh controller: mostly batch loads.
        let catalogue = try Catalogue(path: data.path, seed: false, configuration: configuration)
        let controller = SectionedResultsController(catalogue: catalogue, fetchRequest: request)
        try controller.performFetch()
        var generator = ProductGenerator(seed: 42)
        var randomAccess = Samples()
        let sections = controller.sections
        for _ in 0..<(rounds * 50) {
            let section = Int(generator.next() % UInt64(sections.count))
            let row = Int(generator.next() % UInt64(sections[section].numberOfObjects))
            randomAccess.append(try time { _ = try controller.object(at: ResultIndexPath(row: row, section: section)) })
        }
        let controllerPeak = try Self.controllerPeakInChildProcess(path: data.path)

        var fetch = WorkloadResult(
            title: "Sections: performFetch + index titles", size: data.size,
            results: [("controller, cold", cold), ("controller, warm (section info cache)", warm), ("raw C GROUP BY initial letter", rawGroupBy)],
            anchor: "raw C GROUP BY initial letter")
        fetch.notes = [
            "\(sections.count) sections. The cold fetch also reads every id in display order (8 bytes a row) for batched loading and change tracking; the GROUP BY only counts.",
            "Controller peak RSS: \(controllerPeak / (1 << 20)) MiB — a separate process that opens the catalogue, runs performFetch and 1,000 random object(at:), measured from outside it (this process also holds the in-memory filter anchors).",
        ]
        let access = WorkloadResult(
            title: "Sections: random object(at:) (batch size 20, cold batches)", size: data.size,
            results: [("controller object(at:)", randomAccess)], anchor: "controller object(at:)")
        return ([fetch, access], controllerPeak)
    }
}
