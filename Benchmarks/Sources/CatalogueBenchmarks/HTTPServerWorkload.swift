import CatalogueKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `catalogue serve` under load: wrk sends prefix searches (`Benchmarks/http/prefixes.lua`)
/// over 64 connections while, part-way through, 100,000 products are imported through the API
/// and a change stream waits for the change. Next to it, the same searches through the library
/// in-process, with the same concurrency, for the cost of HTTP. The server's RSS is sampled from
/// /proc while it runs.
///
/// Needs `wrk` (Debian: `apt-get install wrk`) and the release `catalogue` binary.
struct HTTPServerWorkload {
    let data: BenchmarkData
    let catalogueBinary: String
    let scratch: URL
    let seconds: Int
    let connections = 64
    let importRows: Int

    /// The wrk script, next to this package's sources.
    static let luaScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("http/prefixes.lua").path

    /// The search texts of the script: each typed word, key by key.
    static func searchTexts() throws -> [String] {
        let script = try String(contentsOfFile: luaScript, encoding: .utf8)
        guard let line = script.split(separator: "\n").first(where: { $0.hasPrefix("typed = {") }) else {
            throw BenchmarkError("no 'typed = {…}' line in \(luaScript)")
        }
        let words = line.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        return words.flatMap { word in (1...word.count).map { String(word.prefix($0)) } }
    }

    func run() throws -> String {
        let loadBefore = Self.loadAverage()
        let texts = try Self.searchTexts()
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let database = scratch.appendingPathComponent("http-\(data.size).sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        try FileManager.default.copyItem(atPath: data.path, toPath: database)

        let library = try inProcess(database: database, texts: texts)
        let server = try serve(database: database)
        defer { server.stop() }
        // Counted once the server has opened (and, the countries being missing, seeded) the file.
        let productsBefore = try Catalogue(path: database, seed: false).fetchCount(FetchRequest<Product>())
        let sampler = ResidentSizeSampler(pid: server.process.processIdentifier)
        sampler.start()

        let wrk = Process()
        wrk.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
        wrk.arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency", "-s", Self.luaScript, server.url]
        let wrkOutput = Pipe()
        wrk.standardOutput = wrkOutput
        wrk.standardError = wrkOutput
        try wrk.run()

        // Part-way through: a change stream, then an import of `importRows` products.
        Thread.sleep(forTimeInterval: Double(min(5, seconds / 4)))
        let stream = try ChangeStreamReader(port: server.port, path: "/api/products/changes")
        var csv = "name,type,year,price\n"
        var generator = ProductGenerator(seed: 0x1A7E_57)
        for index in 0..<importRows {
            let product = generator.product(index)
            csv += "HTTP load \(product.name),\(product.type),\(product.year ?? 2000),\(product.price ?? 1)\n"
        }
        let importStart = now()
        let answer = try post(server.url + "/api/products/import", body: Data(csv.utf8), token: server.token)
        let importSeconds = now() - importStart
        let change = stream.waitForChange(timeout: 30)
        let changeSeconds = change.map { $0.at - importStart }

        let outputData = wrkOutput.fileHandleForReading.readDataToEndOfFile()
        wrk.waitUntilExit()
        sampler.stop()
        let load = WrkResult(String(decoding: outputData, as: UTF8.self))
        let after = try Catalogue(path: database, seed: false)
        let productsAfter = try after.fetchCount(FetchRequest<Product>())
        let imported = try after.fetchCount(CatalogueSearch.products(matching: "HTTP load"))
        let exit = server.stop()

        var lines = ["### HTTP server: prefix searches over \(connections) connections, \(data.size.formatted()) products", ""]
        lines.append("| | requests/s | p50 | p99 | errors |")
        lines.append("| --- | --- | --- | --- | --- |")
        lines.append("| `catalogue serve` + wrk (\(seconds) s) | \(Int(load.requestsPerSecond).formatted()) | \(load.p50) | \(load.p99) | "
            + "\(load.errors.formatted()) of \(load.requests.formatted()) |")
        lines.append("| library in-process, page + cached total (`Catalogue.fetch`) | \(Int(library.fetch.rate).formatted()) | "
            + "\(formatDuration(library.fetch.samples.median)) | \(formatDuration(library.fetch.samples.p99)) | 0 |")
        lines.append("| library in-process, page + count (`Catalogue.search`) | \(Int(library.search.rate).formatted()) | "
            + "\(formatDuration(library.search.samples.median)) | \(formatDuration(library.search.samples.p99)) | 0 |")
        lines.append("")
        lines.append("- Searches: the \(texts.count) keystrokes of `Benchmarks/http/prefixes.lua` ("
            + texts.map { "`\($0)`" }.joined(separator: ", ") + "), `limit=50`: each answer is 50 products with highlights and the total.")
        lines.append("- Server resident set size: peak \(sampler.peakKiB / 1024) MiB (VmHWM), \(sampler.maximumSampledKiB / 1024) MiB the "
            + "highest sampled VmRSS during the run.")
        lines.append("- Import during the run: \(importRows.formatted()) products (\(csv.utf8.count / 1024) KiB of CSV) in "
            + "\(format2(importSeconds)) s, answered \(answer.status) `\(answer.body.prefix(120))`; products "
            + "\(productsBefore.formatted()) → \(productsAfter.formatted()), \(imported.formatted()) of them imported "
            + "(\(productsAfter - productsBefore == importRows && imported == importRows ? "landed whole" : "NOT whole")).")
        lines.append("- Change stream (`/api/products/changes`, opened before the import): " + (change.map { event in
            let summary = Self.summary(ofChange: event.data)
            return "a `change` event \(summary) \(format2(changeSeconds ?? 0)) s after the import started "
                + "(\(format2((changeSeconds ?? 0) - importSeconds)) s after its answer)"
        } ?? "no change event within 30 s"))
        lines.append("- In-process: \(connections) tasks searching for \(seconds / 3) s through the async API the server uses, on the same file.")
        lines.append("- The server exited with status \(exit.map(String.init) ?? "?") on SIGTERM.")
        lines.append("- Load average of the machine (shared with other builds and tests): \(loadBefore) before, \(Self.loadAverage()) after.")
        return lines.joined(separator: "\n")
    }

    /// The 1-minute load average, from /proc/loadavg.
    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
    }

    /// "with 100,000 inserted ids and reload" for a change event's JSON.
    static func summary(ofChange json: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return "(unreadable)" }
        let inserted = (object["inserted"] as? [Any])?.count ?? 0
        let reload = object["reload"] as? Bool ?? false
        return "for \(object["entity"] ?? "?") with \(inserted.formatted()) inserted ids" + (reload ? " and `reload`" : "")
    }

    // MARK: - In process

    struct Rate {
        var rate: Double
        var samples: Samples
    }

    /// The same searches through the library, from `connections` tasks at once.
    func inProcess(database: String, texts: [String]) throws -> (fetch: Rate, search: Rate) {
        let catalogue = try Catalogue(path: database, seed: false)
        var totals: [String: Int] = [:]
        for text in texts {
            totals[text] = try catalogue.fetchCount(CatalogueSearch.products(matching: text))
        }
        let known = totals
        let fetch = try measureConcurrently(seconds: Double(seconds) / 3) { text in
            var request = CatalogueSearch.products(matching: text)
            request.fetchLimit = 50
            let records = try await catalogue.fetch(request)
            return records.count + (known[text] ?? 0)
        }
        let search = try measureConcurrently(seconds: Double(seconds) / 3) { text in
            try await catalogue.search(CatalogueSearch.products(matching: text), limit: 50).totalCount
        }
        return (fetch, search)
    }

    private func measureConcurrently(seconds: Double, _ body: @escaping @Sendable (String) async throws -> Int) throws -> Rate {
        let texts = try Self.searchTexts()
        let connections = self.connections
        let result = BlockingResult<Rate>()
        Task {
            let deadline = now() + seconds
            let start = now()
            let samples = try await withThrowingTaskGroup(of: [Double].self) { group in
                for task in 0..<connections {
                    group.addTask {
                        var durations: [Double] = []
                        var position = task * 13
                        while now() < deadline {
                            position = (position + 1) % texts.count
                            let begin = now()
                            _ = try await body(texts[position])
                            durations.append(now() - begin)
                        }
                        return durations
                    }
                }
                var all = Samples()
                for try await durations in group { for duration in durations { all.append(duration) } }
                return all
            }
            return Rate(rate: Double(samples.count) / (now() - start), samples: samples)
        }.forward(to: result)
        return try result.wait()
    }

    // MARK: - The server

    final class Server {
        let process = Process()
        let port: Int
        let token: String
        var url: String { "http://127.0.0.1:\(port)" }
        private var exitStatus: Int32?

        init(port: Int, token: String) {
            self.port = port
            self.token = token
        }

        @discardableResult
        func stop() -> Int32? {
            if let exitStatus { return exitStatus }
            guard process.isRunning else { return process.terminationStatus }
            kill(process.processIdentifier, SIGTERM)
            let deadline = now() + 30
            while process.isRunning, now() < deadline { usleep(20_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return nil
            }
            exitStatus = process.terminationStatus
            return exitStatus
        }
    }

    /// Starts `catalogue serve` on a free port with a fresh token; returns once it answers.
    private func serve(database: String) throws -> Server {
        let token = "bench-" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let tokenFile = scratch.appendingPathComponent("token").path
        try token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let port = try freePort()
        let log = scratch.appendingPathComponent("serve.log").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let server = Server(port: port, token: token)
        let process = server.process
        process.executableURL = URL(fileURLWithPath: catalogueBinary)
        process.arguments = ["serve", "--db", database, "--port", "\(port)", "--token-file", tokenFile]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = logHandle   // the access log, one line per request, as in production
        try process.run()
        let deadline = now() + 60
        while now() < deadline {
            if (try? get(server.url + "/api/countries/CO")) == 200 { return server }
            guard process.isRunning else { break }
            usleep(100_000)
        }
        throw BenchmarkError("catalogue serve did not answer on port \(port); see \(log)")
    }

    private func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw BenchmarkError("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private func get(_ url: String) throws -> Int {
        try exchange(URLRequest(url: URL(string: url)!)).status
    }

    private func post(_ url: String, body: Data, token: String) throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.httpBody = body
        request.timeoutInterval = 600
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("text/csv", forHTTPHeaderField: "Content-Type")
        return try exchange(request)
    }

    private func exchange(_ request: URLRequest) throws -> (status: Int, body: String) {
        let result = BlockingResult<(Int, String)>()
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let response = response as? HTTPURLResponse {
                result.set(.success((response.statusCode, String(decoding: data ?? Data(), as: UTF8.self))))
            } else {
                result.set(.failure(error ?? URLError(.badServerResponse)))
            }
        }.resume()
        let (status, body) = try result.wait()
        return (status, body)
    }
}
