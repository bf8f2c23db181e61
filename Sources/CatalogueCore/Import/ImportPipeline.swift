import Foundation

/// Reads, checks and prepares the rows of an import on a second thread while the importing
/// thread writes them: parsing, validation and key folding overlap with SQLite's work.
///
/// The reading thread turns rows into records and their written values (folded keys included),
/// or into issues, in file order, and hands them over in batches through a queue of at most
/// ``capacity`` batches, so memory stays bounded whatever the file size. It never touches the
/// database. The importing thread takes batches with ``next()``; ``finish()`` stops the reader
/// (after an abort) and waits for it, so the input is not read after the import returns.
///
/// ```swift
/// let pipeline = ImportPipeline<Product>(source: source, inputName: "p.csv", preparesValues: true)
/// pipeline.start()
/// defer { pipeline.finish() }
/// while let batch = pipeline.next() { /* write batch.items */ }
/// ```
final class ImportPipeline<R: ImportableRecord>: @unchecked Sendable {
    /// One row of the file, in order.
    enum Item {
        /// A record, its written values when prepared, and which of its stored columns the file
        /// has (nil: all of them).
        case row(line: Int, record: R, values: [DatabaseValue]?, assigned: [Bool]?)
        /// A row that cannot be stored.
        case issue(ImportIssue)
    }

    /// How the rows ended.
    enum End {
        /// Every row was read.
        case finished
        /// Reading stopped at the batch's last item, an issue, as a pipeline that does not read
        /// past issues does (under ``ImportErrorPolicy/abort``, which stops at the first one).
        case stoppedAtIssue
        /// Reading cannot go on (a JSON syntax error in an array).
        case fatal(ImportIssue)
        /// The input could not be read.
        case failed(any Error)
    }

    /// Consecutive rows, with how many bytes had been read after the last one.
    struct Batch {
        var items: [Item] = []
        var bytesRead = 0
        /// Set on the last batch.
        var end: End?
    }

    static var batchSize: Int { 256 }
    static var capacity: Int { 8 }

    // Owned by the reading thread once started.
    private let source: any ImportRowSource
    private let inputName: String
    private let preparesValues: Bool
    private let readsPastIssues: Bool
    /// For each of `R.schema.columns`, the import column of the same name, if any.
    private let importIndexOfColumn: [Int?]
    private var lastPresent: [Bool] = []
    private var lastAssigned: [Bool]?

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [Batch] = []
    private var stopped = false
    private var readerDone = false
    private var delivered = false

    /// - Parameters:
    ///   - preparesValues: compute ``Record/writtenValues`` on the reading thread.
    ///   - readsPastIssues: go on reading after a row that cannot be stored (``ImportErrorPolicy/skip``);
    ///     false stops at it, so an import that aborts there reads nothing more, even of an
    ///     input with no end.
    init(source: any ImportRowSource, inputName: String, preparesValues: Bool, readsPastIssues: Bool = true) {
        self.source = source
        self.inputName = inputName
        self.preparesValues = preparesValues
        self.readsPastIssues = readsPastIssues
        importIndexOfColumn = R.schema.columns.map { name in
            R.importColumns.firstIndex { $0.name == name && !$0.isIgnored }
        }
    }

    /// Starts the reading thread.
    func start() {
        let thread = Thread { [self] in read() }
        thread.name = "CatalogueKit import reader"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// The next batch, waiting for it; nil after the last one.
    func next() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty {
            if delivered { return nil }
            condition.wait()
        }
        let batch = queue.removeFirst()
        if batch.end != nil { delivered = true }
        condition.broadcast()
        return batch
    }

    /// Stops the reading thread and waits until it has stopped.
    func finish() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !readerDone { condition.wait() }
        condition.unlock()
    }

    // MARK: - The reading thread

    private func read() {
        var batch = Batch()
        batch.items.reserveCapacity(Self.batchSize)
        var end: End?
        while end == nil {
            do {
                if let row = try source.next() {
                    let item = prepare(row)
                    batch.items.append(item)
                    if !readsPastIssues, case .issue = item { end = .stoppedAtIssue }
                } else {
                    end = .finished
                }
            } catch let issue as ImportIssue {
                batch.items.append(.issue(issue))
                if !readsPastIssues { end = .stoppedAtIssue }
            } catch let fatal as FatalImportIssue {
                end = .fatal(fatal.issue)
            } catch {
                end = .failed(error)
            }
            if batch.items.count >= Self.batchSize || end != nil {
                batch.bytesRead = source.bytesRead
                batch.end = end
                guard push(batch) else { break }
                batch = Batch()
                batch.items.reserveCapacity(Self.batchSize)
            }
        }
        condition.lock()
        readerDone = true
        condition.broadcast()
        condition.unlock()
    }

    private func prepare(_ row: SourceRow) -> Item {
        do {
            let record = try R(importing: row.row)
            return .row(
                line: row.line, record: record, values: preparesValues ? record.writtenValues : nil,
                assigned: assignedColumns(row.row))
        } catch {
            return .issue(ImportIssue(source: inputName, line: row.line(of: error.column), column: error.column, reason: error.reason))
        }
    }

    /// Which stored columns `row` assigns: those whose import column the file has (a stored
    /// column with no import column of its name is always assigned). Nil when all are.
    private func assignedColumns(_ row: ImportRow) -> [Bool]? {
        // CSV rows all share their header's flags: compute once.
        if row.isPresent == lastPresent { return lastAssigned }
        let assigned = importIndexOfColumn.map { index in index.map { row.isPresent[$0] } ?? true }
        lastPresent = row.isPresent
        lastAssigned = assigned.allSatisfy { $0 } ? nil : assigned
        return lastAssigned
    }

    /// Queues a batch, waiting for room; false when the import stopped.
    private func push(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= Self.capacity, !stopped { condition.wait() }
        guard !stopped else { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }
}
