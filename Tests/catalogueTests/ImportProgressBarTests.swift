import CatalogueKit
import Testing
@testable import CatalogueCommands

/// The progress line of `catalogue import`: rows/s and ETA count from where the import's own
/// work began, after any wait for another writer.
@Suite("The import's progress line")
struct ImportProgressBarTests {
    @Test("From the start: rows/s over the whole time, ETA from the share read")
    func fromTheStart() {
        let progress = ImportProgress(bytesRead: 500, totalBytes: 1_000, rows: 2_000)
        let line = ImportProgressBar.render(progress, elapsed: 4, width: 60)
        // 19 columns of bar: what the 60 leave beside the facts.
        #expect(line == "[#########..........]  50%  2,000 rows  500 rows/s  ETA 4 s")
    }

    @Test("After a wait for another writer: rows/s and ETA count from the progress the wait ended at")
    func afterAWait() {
        let progress = ImportProgress(bytesRead: 750, totalBytes: 1_000, rows: 3_000)
        let line = ImportProgressBar.render(progress, elapsed: 2, since: .init(rows: 1_000, fraction: 0.25), width: 80)
        #expect(line == "[" + String(repeating: "#", count: 27) + String(repeating: ".", count: 10) + "]  75%  3,000 rows  1,000 rows/s  ETA 1 s")
    }

    @Test("An input of unknown size: rows and rows/s only")
    func unknownSize() {
        let progress = ImportProgress(bytesRead: 500, totalBytes: nil, rows: 2_000)
        #expect(ImportProgressBar.render(progress, elapsed: 2, since: .init(rows: 1_000), width: 80) == "2,000 rows  500 rows/s")
    }
}
