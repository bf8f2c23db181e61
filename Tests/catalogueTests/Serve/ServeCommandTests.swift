#if Server
import Foundation
import PostgresTestSupport
import Testing

/// `catalogue serve` as a user runs it: the binary on a free port, stopped by a signal.
@Suite("catalogue serve", .serialized)
struct ServeCommandTests {
    @Test("--help explains the server and shows examples")
    func help() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let result = try runner.run(["serve", "--help"])
            #expect(result.status == 0)
            for text in ["--host", "--port", "--token-file", "--cors-origin", "--max-connections", "--max-connections-per-address", "--idle-timeout", "read-only", "Examples:",
                         "catalogue serve --token-file",
                         "curl 'http://127.0.0.1:8080/api/countries?q=bog&scope=capital'"] {
                #expect(result.standardOutput.contains(text), "\(text)")
            }
            #expect(try runner.run(["--help"]).standardOutput.contains("serve"))
        }
    }

    @Test("Bad options are usage errors; a token file that cannot serve is an error naming it")
    func badOptions() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            for arguments in [["--port", "70000"], ["--cors-origin", "app.example.org"], ["--cors-origin", "https://a.example/path"], ["--host", ""],
                              ["--max-connections", "0"], ["--max-connections-per-address", "-1"], ["--idle-timeout", "0"], ["--idle-timeout", "nan"], ["--idle-timeout", "-1"],
                              ["--idle-timeout", "0.0004"], ["--idle-timeout", "86401"]] {
                let result = try runner.run(["serve"] + arguments)
                #expect(result.status == 2, "\(arguments)")
                #expect(result.standardError.hasPrefix("catalogue: error: "), "\(arguments)")
            }
            let missing = runner.directory.appendingPathComponent("no-token").path
            let result = try runner.run(["serve", "--port", "0", "--token-file", missing])
            #expect(result.status == 1)
            #expect(result.standardError == "catalogue: error: cannot read the token file \(missing): no such file\n")
            let short = runner.directory.appendingPathComponent("short-token").path
            try "letmein\n".write(toFile: short, atomically: true, encoding: .utf8)
            let refused = try runner.run(["serve", "--port", "0", "--token-file", short])
            #expect(refused.status == 1)
            #expect(refused.standardError == "catalogue: error: the token file \(short) holds 7 characters; a token needs at least 16, "
                + "so that it cannot be guessed (make one: openssl rand -hex 24)\n")
        }
    }

    @Test("A port in use is one line saying so and what to do, exit 1")
    func portInUse() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let server = try ServerProcess([], database: runner.databasePath)
            let address = try #require(server.address(), "no start line: \(server.standardError)")
            let port = try #require(address.split(separator: ":").last.map(String.init))
            let second = try runner.run(["serve", "--port", port])
            #expect(second.status == 1)
            #expect(second.standardError == "catalogue: error: cannot listen on 127.0.0.1:\(port): Address already in use "
                + "(another program listens there: --port chooses another port, --port 0 any free one)\n")
            server.send(SIGTERM)
            #expect(server.waitForExit(timeout: 15) == 0, "\(server.standardError.suffix(8_000))")
            // An address that is not this machine's (192.0.2.1 is for documentation, never assigned).
            let elsewhere = try runner.run(["serve", "--port", "0", "--host", "192.0.2.1"])
            #expect(elsewhere.status == 1)
            #expect(elsewhere.standardError == "catalogue: error: cannot listen on 192.0.2.1:0: Cannot assign requested address "
                + "(--host must be an address of this machine, such as 127.0.0.1, or 0.0.0.0 for all)\n")
        }
    }

    @Test("A token file other users can read is used, with a warning to chmod 600 it; a private one, without")
    func tokenFilePermissions() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let token = runner.directory.appendingPathComponent("token").path
            try "s3cret-token-4f9a2c\n".write(toFile: token, atomically: true, encoding: .utf8)
            for (mode, warns) in [(0o644, true), (0o640, true), (0o600, false), (0o400, false)] {
                #expect(chmod(token, mode_t(mode)) == 0)
                let server = try ServerProcess(["--token-file", token], database: runner.databasePath)
                let address = server.address()
                #expect(address != nil, "no start line: \(server.standardError)")
                let warning = "catalogue: warning: other users can read the token file \(token): chmod 600 it"
                #expect(server.standardError.contains(warning) == warns, "mode \(String(mode, radix: 8)): \(server.standardError)")
                // The token works either way.
                if let address {
                    let imported = try httpRequest(
                        "http://\(address)/api/products/import", method: "POST", headers: ["Authorization": "Bearer s3cret-token-4f9a2c"],
                        body: Data("name,type\nTheremin,music\n".utf8))
                    #expect(imported.status == 200)
                }
                server.send(SIGTERM)
                #expect(server.waitForExit(timeout: 15) == 0, "\(server.standardError.suffix(8_000))")
            }
        }
    }

    @Test("catalogue hands serve to catalogue-server, the program next to it, in the same process")
    func handoff() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let server = try ServerProcess([], database: runner.databasePath)
            #expect(server.address() != nil, "no start line: \(server.standardError)")
            #if os(Linux)
            // The process `catalogue` started is now catalogue-server: same id, other program.
            let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server.process.processIdentifier)/exe")
            #expect(program == CommandRunner.productsDirectory.appendingPathComponent("catalogue-server").resolvingSymlinksInPath().path)
            #endif
            server.send(SIGTERM)
            #expect(server.waitForExit(timeout: 15) == 0, "\(server.standardError.suffix(8_000))")

            // Through a symbolic link to catalogue, the server next to the real file is found:
            // the token file is read by the server only, so its error shows the server ran.
            let links = runner.directory.appendingPathComponent("links")
            try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
            let link = links.appendingPathComponent("catalogue")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: CommandRunner.executable)
            let token = runner.directory.appendingPathComponent("no-token").path
            let linked = try runner.runProgram(link.path, ["serve", "--port", "0", "--token-file", token])
            #expect(linked.status == 1)
            #expect(linked.standardError == "catalogue: error: cannot read the token file \(token): no such file\n")

            // A catalogue without catalogue-server beside it: one line, and the rest still works.
            let alone = runner.directory.appendingPathComponent("alone")
            try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
            let copy = alone.appendingPathComponent("catalogue")
            // Copied by cp(1), not in this process: a child another test forks meanwhile would
            // inherit the copy's open descriptor, and running the copy would fail with "Text
            // file busy" (ETXTBSY) until that child execs.
            let copied = try runner.runProgram("/bin/cp", [CommandRunner.executable.path, copy.path])
            try #require(copied.status == 0, "\(copied.standardError)")
            let missing = try runner.runProgram(copy.path, ["serve", "--port", "0"])
            #expect(missing.status == 1)
            #expect(missing.standardError == "catalogue: error: catalogue serve runs \(alone.path)/catalogue-server, which is missing or not executable: build it (swift build --product catalogue-server) and install it next to catalogue\n")
            #expect(try runner.runProgram(copy.path, ["search", "bog", "--scope", "capital"]).standardOutput.contains("Colombia"))
        }
    }

    @Test("Listens on 127.0.0.1, says it is read-only without a token, answers, and stops on SIGINT")
    func readOnlyServer() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let server = try ServerProcess([], database: runner.databasePath)
            let address = try #require(server.address(), "no start line: \(server.standardError)")
            #expect(address.hasPrefix("127.0.0.1:"))
            #expect(server.standardError.contains("read-only: imports are refused (start with --token-file to allow them)"))
            let search = try httpRequest("http://\(address)/api/countries?q=bog&scope=capital")
            #expect(search.status == 200)
            #expect(search.body.contains("\"Colombia\""))
            let page = try httpRequest("http://\(address)/")
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            let refused = try httpRequest("http://\(address)/api/products/import", method: "POST", body: Data("name,type\nx,y\n".utf8))
            #expect(refused.status == 403)
            server.send(SIGINT)
            #expect(server.waitForExit(timeout: 15) == 0, "\(server.standardError.suffix(8_000))")
            // The access log: one structured line per request, on stderr.
            #expect(server.standardError.contains("method=GET path=/api/countries?q=bog&scope=capital status=200"))
        }
    }

    @Test("A write by another process reaches the change stream, and the totals by the time it does")
    func writeByAnotherProcess() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let server = try ServerProcess([], database: runner.databasePath)
            let address = try #require(server.address(), "no start line: \(server.standardError)")
            func total() throws -> Int {
                let answer = try httpRequest("http://\(address)/api/products?q=the&limit=1")
                let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
                return try #require(json["total"] as? Int)
            }
            let before = try total()
            #expect(try total() == before)   // now remembered by the server
            let stream = try EventStreamReader(address: address, path: "/api/products/changes")
            let csv = runner.directory.appendingPathComponent("more.csv").path
            try "name,type\nThe Lute,music\nThe Lyre,music\nThe Zither,music\n".write(toFile: csv, atomically: true, encoding: .utf8)
            let imported = try runner.run(["import", "products", csv])
            #expect(imported.status == 0, "\(imported.standardError)")
            let change = try #require(stream.nextChange(timeout: 30), "no change event")
            #expect(change["entity"] as? String == "products")
            #expect(change["reload"] as? Bool == true)
            #expect((change["inserted"] as? [Int])?.count == 3)
            #expect(try total() == before + 3)
            server.send(SIGTERM)
            #expect(server.waitForExit(timeout: 15) == 0, "\(server.standardError.suffix(8_000))")
        }
    }

    @Test("Under a low open-file limit, idle connections beyond what it allows neither stop the server nor stay for ever")
    func lowOpenFileLimit() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            // The soft and the hard limit: 100 descriptors, 36 of them for connections.
            let server = try ServerProcess(["--idle-timeout", "1"], database: runner.databasePath, first: "ulimit -n 100")
            let address = try #require(server.address(), "no start line: \(server.standardError)")
            #expect(server.standardError.contains("at most 36 connections at once: the open-file limit (ulimit -n) is 100"))
            let port = try #require(address.split(separator: ":").last.flatMap { Int($0) })
            // Before the limit, 80 connections that send nothing left the server without a descriptor:
            // it answered nobody until they closed, which they never had to.
            let idle = (0..<80).compactMap { _ in connectedSocket(port: port) }
            defer { idle.forEach { close($0) } }
            #expect(idle.count == 80)
            let search = try httpRequest("http://\(address)/api/countries?q=bog&scope=capital")
            #expect(search.status == 200)
            #expect(search.body.contains("\"Colombia\""))
            #expect(server.standardError.contains("connection limit reached: 36 open; new connections wait until one closes"))
            server.send(SIGTERM)
            #expect(server.waitForExit(timeout: 15) == 0, "\(server.standardError.suffix(8_000))")
        }
    }

    @Test("The server raises a low soft open-file limit to the hard limit")
    func raisesTheSoftOpenFileLimit() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            var limit = rlimit()
            #if canImport(Glibc)
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            #else
            getrlimit(RLIMIT_NOFILE, &limit)
            #endif
            let server = try ServerProcess([], database: runner.databasePath, first: "ulimit -S -n 100")
            #expect(server.address() != nil, "no start line: \(server.standardError)")
            if limit.rlim_max >= 4096 + 64 {
                #expect(!server.standardError.contains("at most"), "\(server.standardError)")
            } else {
                #expect(server.standardError.contains("at most \(Int(limit.rlim_max) - 64) connections at once"), "\(server.standardError)")
            }
            server.send(SIGTERM)
            #expect(server.waitForExit(timeout: 15) == 0, "\(server.standardError.suffix(8_000))")
        }
    }

    @Test("SIGTERM lets an import in flight finish: it answers, lands whole, and the process exits 0")
    func gracefulShutdown() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let tokenFile = runner.directory.appendingPathComponent("token").path
            try "graceful-token-123\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
            let csv = runner.directory.appendingPathComponent("big.csv").path
            let rows = 150_000
            try writeProductsCSV(to: csv, count: rows, prefix: "Graceful", type: "bulk")
            let server = try ServerProcess(["--token-file", tokenFile], database: runner.databasePath)
            let address = try #require(server.address(), "no start line: \(server.standardError)")
            #expect(server.standardError.contains("imports allowed with the token from \(tokenFile)"))
            let body = try Data(contentsOf: URL(fileURLWithPath: csv))
            nonisolated(unsafe) var answer: (status: Int, headers: [String: String], body: String)?
            let request = DispatchGroup()
            request.enter()
            Thread.detachNewThread {
                answer = try? httpRequest("http://\(address)/api/products/import", method: "POST",
                                          headers: ["Authorization": "Bearer graceful-token-123"], body: body, timeout: 120)
                request.leave()
            }
            // The import is in flight once its transaction has written to the WAL.
            let wal = runner.databasePath + "-wal"
            let walBefore = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, ((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0) < walBefore + 1_000_000 {
                usleep(10_000)
            }
            server.send(SIGTERM)
            #expect(request.wait(timeout: .now() + 120) == .success)
            #expect(answer?.status == 200, "\(String(describing: answer)) \(server.standardError.suffix(500))")
            #expect(answer?.body.contains("\"added\":\(rows)") == true)
            #expect(server.waitForExit(timeout: 30) == 0, "\(server.standardError.suffix(8_000))")
            #expect(try sqliteValue(runner.databasePath, "SELECT count(*) FROM product WHERE type = 'bulk'") == "\(rows)")
        }
    }
}
#endif
