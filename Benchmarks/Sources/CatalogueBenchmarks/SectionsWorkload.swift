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

    func run() throws -> [WorkloadResult] {
        var configuration = CatalogueKit.Configuration()
        configuration.readOnly = true
        let request = CatalogueKit.FetchRequest<Product>(sortDescriptors: CatalogueKit.SortDescriptor.byName)

        // Cold: a new catalogue connection and controller each round (no cache, cold statements).
        var cold = Samples()
        var warm = Samples()
        var titles: [String] = []
        let rssBefore = peakResidentBytes()
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
        let peak = peakResidentBytes()

        var fetch = WorkloadResult(
            title: "Sections: performFetch + index titles", size: data.size,
            results: [("controller, cold", cold), ("controller, warm (section info cache)", warm), ("raw C GROUP BY initial letter", rawGroupBy)],
            anchor: "raw C GROUP BY initial letter")
        fetch.notes = [
            "\(sections.count) sections. The cold fetch also reads every id in display order (8 bytes a row) for batched loading and change tracking; the GROUP BY only counts.",
            "Peak RSS of the benchmark process after this workload: \(peak / (1 << 20)) MiB (before it: \(rssBefore / (1 << 20)) MiB).",
        ]
        let access = WorkloadResult(
            title: "Sections: random object(at:) (batch size 20, cold batches)", size: data.size,
            results: [("controller object(at:)", randomAccess)], anchor: "controller object(at:)")
        return [fetch, access]
    }
}
