import Foundation
import PostgresTestSupport
import Testing

/// The built binary on PostgreSQL: `--db postgres://…` (or `CATALOGUE_DB`) runs every command on
/// a database of the throwaway test server, in a build with the PostgreSQL trait
/// (`swift test --traits PostgreSQL`). Without the trait, a `postgres://` location is one line
/// saying how to build with PostgreSQL.
@Suite("catalogue on PostgreSQL (the built binary)")
struct PostgresCommandTests {
    #if PostgreSQL
    /// A runner and a new database of its own on the test server (created and seeded by the
    /// first command).
    static func prepared() throws -> (CommandRunner, url: String) {
        let database = try PostgresTestServer.shared().createDatabase(prefix: "cli")
        return (try CommandRunner(), database.url)
    }

    @Test("The README's searches print the same rows on PostgreSQL", .requiresPostgres, arguments: [
        (["search", "bog", "--scope", "capital"], ["Colombia"]),
        (["search", "cote"], ["Côte d'Ivoire"]),
        (["search", "turkey"], ["Türkiye"]),
        (["search", "--scope", "capital", "SÃO"], ["São Tomé and Príncipe"]),
        (["search", "--entity", "products", "--scope", "device", "ipad"], ["iPad", "iPad mini"]),
        (["search", "--entity", "products", "--match", "terms", "ipod 2007"], ["iPod touch"]),
        (["search", "--entity", "products", "--match", "contains", "brûlée"], ["Crème brûlée torch set"]),
        (["search", "--match", "words", "united ki"], ["United Kingdom"]),
        (["search", "--match", "fuzzy", "Columbia"], ["Colombia"]),
    ])
    func searches(arguments: [String], expected: [String]) async throws {
        try await onOwnThread {
            let (runner, url) = try Self.prepared()
            defer { runner.cleanUp() }
            let result = try runner.run(arguments + ["--format", "json", "--db", url])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(try result.jsonNames() == expected)
            #expect(result.standardError.isEmpty)
        }
    }

    @Test("CATALOGUE_DB may be the URL; the table output is SQLite's", .requiresPostgres)
    func environment() async throws {
        try await onOwnThread {
            let (runner, url) = try Self.prepared()
            defer { runner.cleanUp() }
            let result = try runner.run(["search", "bog", "--scope", "capital"], environment: ["CATALOGUE_DB": url])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("Bogotá"))
            #expect(result.standardOutput.hasSuffix("1 item found\n"))
            // The same command on a SQLite file prints the same text.
            let sqlite = try runner.run(["search", "bog", "--scope", "capital"])
            #expect(sqlite.standardOutput == result.standardOutput)
        }
    }

    @Test("A search that finds nothing says on stderr what finds it, as on SQLite", .requiresPostgres)
    func foundElsewhere() async throws {
        try await onOwnThread {
            let (runner, url) = try Self.prepared()
            defer { runner.cleanUp() }
            for arguments in [["paris"], ["salvador"], ["lvador", "--match", "words"], ["ds"], ["columbia"], ["mini", "--match", "words"]] {
                let postgres = try runner.run(["search"] + arguments + ["--db", url])
                let sqlite = try runner.run(["search"] + arguments)
                #expect(postgres.status == 0, "\(arguments): \(postgres.standardError)")
                #expect(postgres.standardOutput == "No items found\n", "\(arguments)")
                #expect(postgres.standardError == sqlite.standardError, "\(arguments)")
            }
            #expect(try runner.run(["search", "salvador", "--db", url]).standardError == "found with --match words: 1 country\n")
        }
    }

    @Test("index and browse: the same sections as on SQLite", .requiresPostgres)
    func sections() async throws {
        try await onOwnThread {
            let (runner, url) = try Self.prepared()
            defer { runner.cleanUp() }
            for arguments in [["index"], ["index", "--entity", "products", "--format", "json"], ["browse", "--section", "Y"]] {
                let postgres = try runner.run(arguments + ["--db", url])
                let sqlite = try runner.run(arguments)
                #expect(postgres.status == 0, "\(arguments): \(postgres.standardError)")
                #expect(!postgres.standardOutput.isEmpty)
                #expect(postgres.standardOutput == sqlite.standardOutput, "\(arguments)")
            }
        }
    }

    @Test("import (all or nothing, FILE:LINE errors, skip), export and show on PostgreSQL", .requiresPostgres)
    func importExportShow() async throws {
        try await onOwnThread {
            let (runner, url) = try Self.prepared()
            defer { runner.cleanUp() }
            let file = runner.directory.appendingPathComponent("products.csv")
            try Data("name,type,year,price\nBrass kettle,kitchen,2021,30\n\"Crème brûlée\ntorch\",kitchen,2019,34.5\niPod nano,device,20x7,149\n".utf8)
                .write(to: file)
            let before = try runner.run(["export", "products", "--format", "ndjson", "--db", url])
            #expect(before.status == 0, "\(before.standardError)")

            let aborted = try runner.run(["import", "products", file.path, "--db", url])
            #expect(aborted.status == 1)
            #expect(aborted.standardError == "catalogue: error: \(file.path):5: year: not a whole number: \"20x7\"\n")
            #expect(try runner.run(["export", "products", "--format", "ndjson", "--db", url]).standardOutput == before.standardOutput)

            let skipped = try runner.run(["import", "products", file.path, "--on-error", "skip", "--db", url])
            #expect(skipped.status == 0, "\(skipped.standardError)")
            #expect(skipped.standardError.hasPrefix("\(file.path):5: year: not a whole number: \"20x7\"\n"))
            #expect(skipped.standardOutput.hasPrefix("Imported 2 products (2 added, 0 updated, 1 skipped)"))

            let found = try runner.run(["search", "creme bru", "--entity", "products", "--format", "json", "--db", url])
            // Folded, "\n" sorts before " ": the new row comes before the seed's.
            #expect(try found.jsonNames() == ["Crème brûlée\ntorch", "Crème brûlée torch set"])
            let exported = try runner.run(["export", "products", "--format", "ndjson", "--db", url])
            let last = try #require(exported.standardOutput.split(separator: "\n").last)
            #expect(last.contains("\"name\":\"Crème brûlée\\ntorch\",\"type\":\"kitchen\",\"year\":2019,\"price\":34.5"))

            let id = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])["id"] as? Int
            let show = try runner.run(["show", "\(try #require(id))", "--db", url])
            #expect(show.status == 0, "\(show.standardError)")
            // The name's line break is shown escaped on a terminal page (issue 13).
            #expect(show.standardOutput.hasPrefix("Crème brûlée\\ntorch\n"), "\(show.standardOutput)")
            let country = try runner.run(["show", "ci", "--db", url])
            #expect(country.standardOutput.contains("Yamoussoukro"))
            #expect(country.standardOutput == (try runner.run(["show", "ci"])).standardOutput)
            // By a name, and by another name, as on SQLite.
            #expect((try runner.run(["show", "CÔTE D'IVOIRE", "--db", url])).standardOutput == country.standardOutput)
            #expect((try runner.run(["show", "ivory", "coast", "--db", url])).standardOutput == country.standardOutput)
            let typo = try runner.run(["show", "frnace", "--db", url])
            #expect(typo.standardError == "catalogue: error: no country or product named 'frnace'; did you mean France (FR)? Show it with: catalogue show FR\n")

            // An export imported into another PostgreSQL database gives the same rows.
            let (other, otherURL) = try Self.prepared()
            defer { other.cleanUp() }
            let exportFile = runner.directory.appendingPathComponent("export.ndjson")
            try Data(exported.standardOutput.utf8).write(to: exportFile)
            #expect(try other.run(["import", "products", exportFile.path, "--db", otherURL]).status == 0)
            let names = { (output: String) in
                output.split(separator: "\n").map { line in
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["name"] as? String ?? ""
                }.sorted()
            }
            let reexported = try other.run(["export", "products", "--format", "ndjson", "--db", otherURL]).standardOutput
            #expect(names(reexported) == names(exported.standardOutput))
        }
    }

    /// Drives `catalogue interactive --db URL` in tmux: search, scope switch, quit.
    static let interactiveScript = #"""
        set -u
        BIN=$1; URL=$2; WORK=$(mktemp -d); SOCKET="catalogue-pg-tmux-$$"
        tm() { tmux -u -L "$SOCKET" -f /dev/null "$@"; }
        trap 'tm kill-server 2>/dev/null; rm -rf "$WORK"' EXIT
        # $2 seconds at most (20 unless given); on failure the screen and what the process does.
        shows() {
            local deadline=$((SECONDS + ${2:-20}))
            until tm capture-pane -p -t t | grep -Eq -- "$1"; do
                if [ $SECONDS -ge $deadline ]; then
                    echo "not on screen after ${2:-20} s: $1"; tm capture-pane -p -t t
                    ps -o pid,stat,etime,time,wchan:24,args -C catalogue
                    exit 1
                fi
                sleep 0.05
            done
        }
        tm new-session -d -s t -x 80 -y 24             "XDG_STATE_HOME=$WORK/state HOME=$WORK '$BIN' interactive --db '$URL'; echo EXIT=\$?; sleep 60"
        # The database was seeded before; still, on a loaded machine the first screen may wait
        # for a busy server.
        shows 'Scope: \[Name 250\]' 60
        tm send-keys -t t -l '/cote'
        shows "^> Côte d'Ivoire +Yamoussoukro"
        shows 'Scope: \[Name 1\] · Capital 0'
        tm send-keys -t t Tab C-u
        tm send-keys -t t -l 'bog'
        shows '^> Bogotá +Colombia'
        tm send-keys -t t C-c
        shows '^EXIT=0'
        echo "interactive on PostgreSQL: ok"
        """#

    @Test("interactive on PostgreSQL in tmux: search as you type, the capital scope, quit", .requiresPostgres)
    func interactive() async throws {
        try await onOwnThread {
            guard InteractiveTmuxTests.tmuxIsInstalled() else { return }
            let (runner, url) = try Self.prepared()
            defer { runner.cleanUp() }
            // The first open migrates and seeds the new database (about 2 s of a debug build on
            // an idle machine, and CI's is not idle): done here, so the screen shows at once.
            let seeded = try runner.run(["search", "x", "--db", url])
            try #require(seeded.status == 0, "\(seeded.standardError)")
            let log = runner.directory.appendingPathComponent("tmux.log")
            let status = try InteractiveTmuxTests.run(
                ["/bin/bash", "-c", Self.interactiveScript, "bash", CommandRunner.executable.path, url], output: log.path)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(status == 0, "\(text)")
            #expect(text.hasSuffix("interactive on PostgreSQL: ok\n"), "\(text)")
        }
    }

    /// A server of the test's own, to be stopped under a catalogue, and a database on it whose
    /// catalogue the CLI has migrated and seeded (committed durably: the migration outlives a
    /// crash-like stop). The caller stops the server.
    static func ownServer(prefix: String, runner: CommandRunner) throws -> (PostgresTestServer, PostgresTestDatabase) {
        let server = try PostgresTestServer.start()
        do {
            try server.psql("ALTER SYSTEM SET synchronous_commit = on; SELECT pg_reload_conf();")
            let database = try server.createDatabase(prefix: prefix)
            let migrated = try runner.run(["search", "x", "--db", database.url])
            try #require(migrated.status == 0, "\(migrated.standardError)")
            return (server, database)
        } catch {
            try? server.stop()
            throw error
        }
    }

    /// One step of `catalogue interactive` in a tmux server that outlives the step (its socket
    /// named by the first argument), so that the test can stop and start PostgreSQL between
    /// steps: `tm` runs tmux, `shows PATTERN [SECONDS]` waits for the screen to show PATTERN.
    static let tmuxStepPrelude = #"""
        set -u
        SOCKET=$1
        tm() { tmux -u -L "$SOCKET" -f /dev/null "$@"; }
        shows() {
            local deadline=$((SECONDS + ${2:-20}))
            until tm capture-pane -p -t t | grep -Eq -- "$1"; do
                if [ $SECONDS -ge $deadline ]; then
                    echo "not on screen after ${2:-20} s: $1"; tm capture-pane -p -t t
                    exit 1
                fi
                sleep 0.05
            done
        }

        """#

    @Test("interactive on PostgreSQL in tmux: a server that stops shows on the status line, the screen stays; restarted, typing searches again", .requiresPostgres)
    func interactiveWhileServerIsDown() async throws {
        try await onOwnThread {
            guard InteractiveTmuxTests.tmuxIsInstalled() else { return }
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let (server, database) = try Self.ownServer(prefix: "cli_tui_down", runner: runner)
            defer { try? server.stop() }
            let socket = "catalogue-pg-down-\(getpid())"
            defer { _ = try? InteractiveTmuxTests.run(["/bin/sh", "-c", "tmux -L \(socket) kill-server"], output: "/dev/null") }
            var transcript = ""
            func step(_ script: String) throws -> Bool {
                let log = runner.directory.appendingPathComponent("tmux-step.log")
                let status = try InteractiveTmuxTests.run(
                    ["/bin/bash", "-c", Self.tmuxStepPrelude + script, "bash", socket, CommandRunner.executable.path, database.url],
                    output: log.path)
                transcript += (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                return status == 0
            }
            #expect(try step(#"""
                tm new-session -d -s t -x 200 -y 24 "XDG_STATE_HOME='\#(runner.directory.path)/state' '$2' interactive --db '$3'; echo EXIT=\$?; sleep 60"
                shows 'Scope: \[Name 250\]' 60
                tm send-keys -t t -l '/col'
                shows '^> Colombia +Bogotá'
                """#), "\(transcript)")

            try server.stopImmediately()
            // The key's search fails; the list of "col" stays, with the text typed since, and
            // the status line says why (the first read may meet the closed connection).
            #expect(try step(#"""
                tm send-keys -t t -l 'o'
                shows 'Database unavailable \(type to retry\): cannot connect to ' 30
                shows 'Search countries: colo '
                shows '^> Colombia +Bogotá'
                tm send-keys -t t -l 'm'
                shows 'Database unavailable \(type to retry\): cannot connect to .*: connection refused \(is the server running\?\)' 30
                """#), "\(transcript)")

            try server.restart()
            // The last probe's answer stands for a second; the next key dials again.
            Thread.sleep(forTimeInterval: 1.1)
            #expect(try step(#"""
                tm send-keys -t t C-u
                tm send-keys -t t -l 'bra'
                shows '^> Brazil +Brasília'
                shows ' found '
                if tm capture-pane -p -t t | grep -q 'Database unavailable'; then echo "the status line still says unavailable"; exit 1; fi
                tm send-keys -t t C-c
                shows '^EXIT=0'
                """#), "\(transcript)")
        }
    }

    @Test("A server that is down, a wrong password, an unknown database: one line naming the server, exit 1", .requiresPostgres)
    func connectionFailures() async throws {
        try await onOwnThread {
            let server = try PostgresTestServer.shared()
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            // Nothing listens on port 1 (binding it takes root, and no service of this machine does).
            let closedPort = 1
            let down = try runner.run(["search", "bog", "--db", "postgres://app@127.0.0.1:\(closedPort)/catalogue"])
            #expect(down.status == 1)
            #expect(down.standardOutput.isEmpty)
            #expect(down.standardError
                == "catalogue: error: cannot connect to postgres://app@127.0.0.1:\(closedPort)/catalogue: connection refused (is the server running?)\n")

            let role = "cli_reader_\(UInt32.random(in: 0...UInt32.max))"
            try server.createRole(role, password: "right")
            let database = try server.createDatabase(prefix: "cli")
            let wrong = try runner.run(["search", "bog", "--db", server.url(database: database.name, user: role, password: "wrong")])
            #expect(wrong.status == 1)
            #expect(wrong.standardError == "catalogue: error: cannot connect to postgres://\(role)@127.0.0.1:\(server.port)/\(database.name): "
                + "password authentication failed for user \"\(role)\"\n")
            #expect(!wrong.standardError.contains("wrong"))

            // RFC 6761: .invalid names never resolve.
            let nowhere = try runner.run(["search", "bog", "--db", "postgres://app@no-such-host.invalid/catalogue?connect_timeout=60"])
            #expect(nowhere.status == 1)
            #expect(nowhere.standardError == "catalogue: error: cannot connect to postgres://app@no-such-host.invalid:5432/catalogue: "
                + "unknown host (its name could not be resolved)\n")

            let unknown = try runner.run(["search", "bog", "--db", server.url(database: "no_such_database")])
            #expect(unknown.status == 1)
            #expect(unknown.standardError == "catalogue: error: cannot connect to postgres://postgres@127.0.0.1:\(server.port)/no_such_database: "
                + "database \"no_such_database\" does not exist\n")
        }
    }

    @Test("Several hosts in the URL: the first that answers serves the command; none answering is one line naming each", .requiresPostgres)
    func severalHosts() async throws {
        try await onOwnThread {
            let server = try PostgresTestServer.shared()
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let database = try server.createDatabase(prefix: "cli_hosts")
            // Nothing listens on port 1 (binding it takes root, and no service of this machine does).
            let url = "postgres://postgres@127.0.0.1:1,127.0.0.1:\(server.port)/\(database.name)?target_session_attrs=read-write"
            let found = try runner.run(["search", "bog", "--scope", "capital", "--db", url])
            #expect(found.status == 0, "\(found.standardError)")
            #expect(found.standardOutput.contains("Colombia"))
            let imported = try runner.run(["import", "countries", "-", "--format", "csv", "--db", url], input: Data("code,name\nZZ,Zedland\n".utf8))
            #expect(imported.status == 0, "\(imported.standardError)")
            #expect(try server.psql("SELECT name FROM country WHERE code = 'ZZ'", database: database.name) == "Zedland\n")
            let none = "postgres://postgres@127.0.0.1:1,127.0.0.1:1/\(database.name)"
            let down = try runner.run(["search", "bog", "--db", none])
            #expect(down.status == 1)
            #expect(down.standardError == "catalogue: error: cannot connect to postgres://postgres@127.0.0.1:1,127.0.0.1:1/\(database.name): "
                + "no host could be reached: 127.0.0.1:1: connection refused (is the server running?); "
                + "127.0.0.1:1: connection refused (is the server running?)\n")
        }
    }

    #if Server
    @Test("serve follows its host's failure to the URL's next host, and logs it", .requiresPostgres)
    func serveFollowsFailover() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let name = "cli_failover_\(getpid())"
            let first = try PostgresTestServer.start()
            let second = try PostgresTestServer.start()
            defer {
                try? first.stop()
                try? second.stop()
            }
            for server in [first, second] {
                try server.psql("CREATE DATABASE :\"name\" TEMPLATE \(PostgresTestServer.templateDatabase)", variables: ["name": name])
                let migrated = try runner.run(["search", "bog", "--db", "postgres://postgres@127.0.0.1:\(server.port)/\(name)"])
                #expect(migrated.status == 0, "\(migrated.standardError)")
            }
            let url = "postgres://postgres@127.0.0.1:\(first.port),127.0.0.1:\(second.port)/\(name)"
            let serve = try ServerProcess([], database: url)
            let address = try #require(serve.address(), "\(serve.standardError)")
            let search = "http://\(address)/api/countries?q=bog&scope=capital"
            #expect(try httpRequest(search).status == 200)

            try first.stopImmediately()
            // The request that meets the stopped server fails; a later one is answered by the other.
            var statuses: [Int] = []
            while statuses.last != 200, statuses.count < 10 {
                statuses.append(try httpRequest(search).status)
                if statuses.last != 200 { Thread.sleep(forTimeInterval: 0.5) }
            }
            #expect(statuses.last == 200, "\(statuses)")
            #expect(try httpRequest(search).body.contains("Colombia"))
            #expect(serve.standardError.contains(
                "PostgreSQL host 127.0.0.1:\(first.port) stopped serving the catalogue; now on 127.0.0.1:\(second.port)"),
                "\(serve.standardError)")
            serve.send(SIGTERM)
            #expect(serve.waitForExit(timeout: 30) == 0)
        }
    }
    #endif

    #if Server
    @Test("serve while its one PostgreSQL server is down: a 503 with Retry-After at once, naming nothing of the database; served again once it is back", .requiresPostgres)
    func serveWhileServerIsDown() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let (server, database) = try Self.ownServer(prefix: "cli_down", runner: runner)
            defer { try? server.stop() }
            let serve = try ServerProcess([], database: database.url)
            let address = try #require(serve.address(), "\(serve.standardError)")
            let search = "http://\(address)/api/countries?q=bog&scope=capital"
            #expect(try httpRequest(search).status == 200)

            try server.stopImmediately()
            for _ in 0..<3 {
                let down = try httpRequest(search)
                #expect(down.status == 503, "\(down.body)")
                #expect(down.headers["retry-after"] == "5")
                let body = try JSONSerialization.jsonObject(with: Data(down.body.utf8)) as? [String: String]
                #expect(body == ["error": "the catalogue's database is not answering; try again shortly"])
            }
            // The log says why, naming the server.
            #expect(serve.standardError.contains("cannot connect to \(database.url): connection refused (is the server running?)"),
                "\(serve.standardError)")

            try server.restart()
            // The last probe's answer stands for a second; the next request dials again. On a
            // loaded machine (CI's PostgreSQL stage runs its tests side by side) the first dial
            // after the restart may still fail once (seen once in two runs here), so the server
            // is asked again for up to 20 s: it must come back without a restart of `serve`.
            Thread.sleep(forTimeInterval: 1.1)
            var answers: [String] = []
            var back = try httpRequest(search)
            let deadline = Date().addingTimeInterval(20)
            while back.status != 200, Date() < deadline {
                answers.append("\(back.status) \(back.body)")
                Thread.sleep(forTimeInterval: 0.5)
                back = try httpRequest(search)
            }
            #expect(back.status == 200, "\(answers) \(back.body)\n\(serve.standardError)")
            #expect(back.body.contains("Colombia"))
            serve.send(SIGTERM)
            #expect(serve.waitForExit(timeout: 30) == 0)
        }
    }

    @Test("serve follows a password rotated in its password file: the request that met the refusal is served with the new password", .requiresPostgres)
    func servePasswordRotation() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let server = try PostgresTestServer.shared()
            let database = try server.createDatabase(prefix: "cli_rotate")
            let role = "cli_rotate_\(UInt32.random(in: 0...UInt32.max))"
            try server.createRole(role, password: "pw-first-Qx7")
            try server.psql("ALTER ROLE :\"role\" SUPERUSER", variables: ["role": role])
            let file = runner.directory.appendingPathComponent("pgpass").path
            func writePasswordFile(_ password: String) throws {
                try "127.0.0.1:\(server.port):\(database.name):\(role):\(password)\n".write(toFile: file, atomically: true, encoding: .utf8)
                #expect(chmod(file, 0o600) == 0)
            }
            try writePasswordFile("pw-first-Qx7")
            let url = server.url(database: database.name, user: role)
            let migrated = try runner.run(["search", "bog", "--db", url], environment: ["PGPASSFILE": file])
            #expect(migrated.status == 0, "\(migrated.standardError)")
            let serve = try ServerProcess([], database: url, first: "export PGPASSFILE='\(file)'")
            let address = try #require(serve.address(), "\(serve.standardError)")
            let search = "http://\(address)/api/countries?q=bog&scope=capital"
            #expect(try httpRequest(search).status == 200)

            // Rotated on the server and in the file; the role's connections end.
            try server.psql("ALTER ROLE :\"role\" PASSWORD 'pw-second-Zr9'", variables: ["role": role])
            try writePasswordFile("pw-second-Zr9")
            try server.terminateConnections(of: role)
            // A request may meet a connection the pool has not yet seen closed (a 503); the next
            // meets the refusal of the old password, and runs again with the new one.
            var statuses: [Int] = []
            for _ in 0..<3 where statuses.last != 200 {
                statuses.append(try httpRequest(search).status)
            }
            #expect(statuses.last == 200, "\(statuses) \(serve.standardError)")
            #expect(statuses.dropLast().allSatisfy { $0 == 503 } && statuses.count <= 2, "\(statuses)")
            #expect(!serve.standardError.contains("password authentication failed"), "\(serve.standardError)")
            #expect(!serve.standardError.contains("pw-first") && !serve.standardError.contains("pw-second"), "a password in the log")
            serve.send(SIGTERM)
            #expect(serve.waitForExit(timeout: 30) == 0)
        }
    }
    #endif

    @Test("A catalogue in a schema of its own, chosen by the URL's options or PGOPTIONS; a schema that is not there is one line", .requiresPostgres)
    func schemaOfItsOwn() async throws {
        try await onOwnThread {
            let server = try PostgresTestServer.shared()
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let database = try server.createDatabase(prefix: "cli_schema")
            try database.psql("CREATE SCHEMA shop")
            let url = database.url + "?options=-c%20search_path%3Dshop"
            let imported = try runner.run(["import", "countries", "-", "--format", "csv", "--db", url], input: Data("code,name\nZZ,Zedland\n".utf8))
            #expect(imported.status == 0, "\(imported.standardError)")
            #expect(try database.psql("SELECT name FROM shop.country WHERE code = 'ZZ'") == "Zedland\n")
            #expect(try database.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == "0\n")
            let found = try runner.run(["search", "zed", "--db", database.url], environment: ["PGOPTIONS": "-c search_path=shop"])
            #expect(found.status == 0, "\(found.standardError)")
            #expect(found.standardOutput.contains("Zedland"))
            let missing = database.url + "?options=-c%20search_path%3Dnowhere"
            let refused = try runner.run(["search", "zed", "--db", missing])
            #expect(refused.status == 1)
            #expect(refused.standardError == "catalogue: error: cannot use \(missing): no schema of the search_path (nowhere) exists; "
                + "create the catalogue's (CREATE SCHEMA name) or choose one that exists (options=-c search_path=name)\n")
        }
    }

    @Test("The password from PGPASSWORD or the password file, not the URL; a password file others can read is ignored", .requiresPostgres)
    func passwordOutsideTheURL() async throws {
        try await onOwnThread {
            let server = try PostgresTestServer.shared()
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let role = "cli_pgpass_\(UInt32.random(in: 0...UInt32.max))"
            try server.createRole(role, password: "from the file: \\ too")
            let database = try server.createDatabase(prefix: "cli_pgpass")
            try server.psql("ALTER DATABASE :\"database\" OWNER TO :\"role\"", variables: ["database": database.name, "role": role])
            // No password in the URL, which `ps` shows to every user of the machine.
            let url = "postgres://\(role)@\(server.host):\(server.port)/\(database.name)"
            let file = runner.directory.appendingPathComponent("pgpass").path
            try "# the catalogue's role\n\(server.host):\(server.port):*:\(role):from the file\\: \\\\ too\n"
                .write(toFile: file, atomically: true, encoding: .utf8)
            #expect(chmod(file, 0o600) == 0)
            let found = try runner.run(["search", "bog", "--scope", "capital", "--format", "json", "--db", url], environment: ["PGPASSFILE": file])
            #expect(found.status == 0, "\(found.standardError)")
            #expect(try found.jsonNames() == ["Colombia"])
            // The host, port, user and database from the environment too, as psql takes them.
            let fromEnvironment = try runner.run(["search", "bog", "--scope", "capital", "--format", "json", "--db", "postgres://"], environment: [
                "PGPASSWORD": "from the file: \\ too", "PGHOST": server.host, "PGPORT": String(server.port), "PGUSER": role,
                "PGDATABASE": database.name, "PGPASSFILE": "/nonexistent/pgpass",
            ])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.standardError)")
            #expect(try fromEnvironment.jsonNames() == ["Colombia"])
            // A file its group can read is ignored, as libpq ignores it; the error says where a password may come from.
            #expect(chmod(file, 0o640) == 0)
            let ignored = try runner.run(["search", "bog", "--db", url], environment: ["PGPASSFILE": file])
            #expect(ignored.status == 1)
            #expect(ignored.standardError == "catalogue: error: cannot connect to \(url): the server wants a password and none was given "
                + "(add it to the URL, set PGPASSWORD, or put it in ~/.pgpass, readable by you alone)\n")
        }
    }

    @Test("A connection service, as psql \"service=NAME\" reads it: ?service=NAME or PGSERVICE", .requiresPostgres)
    func connectionService() async throws {
        try await onOwnThread {
            let server = try PostgresTestServer.shared()
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let role = "cli_service_\(UInt32.random(in: 0...UInt32.max))"
            try server.createRole(role, password: "service secret")
            let database = try server.createDatabase(prefix: "cli_service")
            try server.psql("ALTER DATABASE :\"database\" OWNER TO :\"role\"", variables: ["database": database.name, "role": role])
            let file = runner.directory.appendingPathComponent("pg_service.conf").path
            try """
                # the team's catalogue
                [team_catalogue]
                host=\(server.host)
                port=\(server.port)
                dbname=\(database.name)
                user=\(role)
                password=service secret
                """.write(toFile: file, atomically: true, encoding: .utf8)
            let environment = ["PGSERVICEFILE": file, "PGSYSCONFDIR": runner.directory.path, "PGPASSFILE": "/nonexistent/pgpass"]
            let found = try runner.run(
                ["search", "bog", "--scope", "capital", "--format", "json", "--db", "postgres://?service=team_catalogue"],
                environment: environment)
            #expect(found.status == 0, "\(found.standardError)")
            #expect(try found.jsonNames() == ["Colombia"])
            let fromVariable = try runner.run(
                ["search", "bog", "--scope", "capital", "--format", "json", "--db", "postgres://"],
                environment: environment.merging(["PGSERVICE": "team_catalogue"]) { $1 })
            #expect(fromVariable.status == 0, "\(fromVariable.standardError)")
            #expect(try fromVariable.jsonNames() == ["Colombia"])
            let missing = try runner.run(["search", "bog", "--db", "postgres://?service=nope"], environment: environment)
            #expect(missing.status == 1)
            #expect(missing.standardError == "catalogue: error: bad PostgreSQL URL postgres://?service=nope: "
                + "no service nope in \(file) or \(runner.directory.path)/pg_service.conf\n")
        }
    }

    @Test("Through the server's Unix-domain socket, as psql connects: the URL's host parameter, or PGHOST", .requiresPostgres)
    func unixSocket() async throws {
        try await onOwnThread {
            let server = try PostgresTestServer.shared()
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let database = try server.createDatabase(prefix: "cli_socket")
            let socketDirectory = server.directory.path
            let url = "postgres://\(server.superuser)@:\(server.port)/\(database.name)?host=\(socketDirectory)"
            let found = try runner.run(["search", "bog", "--scope", "capital", "--format", "json", "--db", url])
            #expect(found.status == 0, "\(found.standardError)")
            #expect(try found.jsonNames() == ["Colombia"])
            let fromEnvironment = try runner.run(
                ["search", "bog", "--scope", "capital", "--format", "json", "--db", "postgres://\(server.superuser)@/\(database.name)"],
                environment: ["PGHOST": socketDirectory, "PGPORT": String(server.port)])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.standardError)")
            #expect(try fromEnvironment.jsonNames() == ["Colombia"])
            let nowhere = try runner.run(["search", "bog", "--db", "postgres://app@:5432/catalogue?host=/nonexistent"])
            #expect(nowhere.status == 1)
            #expect(nowhere.standardError == "catalogue: error: cannot connect to postgres://app@:5432/catalogue?host=/nonexistent: "
                + "no server socket there (is the server running, and is that its socket directory?)\n")
        }
    }

    @Test("A server with TLS and a self-signed certificate, as Debian's: found by default; verify-full says why not in one line; a client certificate from ~/.postgresql or PGSSLCERT", .requiresPostgres)
    func selfSignedServer() async throws {
        try await onOwnThread {
            let server = try PostgresTestServer.start(tls: true)
            defer { try? server.stop() }
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            let url = try server.createDatabase(prefix: "cli_tls").url
            let found = try runner.run(["search", "bog", "--scope", "capital", "--format", "json", "--db", url])
            #expect(found.status == 0, "\(found.standardError)")
            #expect(try found.jsonNames() == ["Colombia"])
            let verified = try runner.run(["search", "bog", "--db", url + "?sslmode=verify-full"])
            #expect(verified.status == 1)
            #expect(verified.standardError.hasPrefix("catalogue: error: cannot connect to postgres://postgres@127.0.0.1:\(server.port)/"))
            #expect(verified.standardError.hasSuffix(": the server's certificate is not signed by a trusted authority "
                + "(give the authority's certificate with sslrootcert=PATH, or use sslmode=require, which does not check it)\n"))

            // A role the server logs in by client certificate: libpq's files in ~/.postgresql,
            // else PGSSLCERT and PGSSLKEY, as psql finds them.
            let role = PostgresTestServer.certificateRole
            let owned = try server.createDatabase(prefix: "cli_cert")
            try server.psql("ALTER DATABASE :\"database\" OWNER TO :\"role\"", variables: ["database": owned.name, "role": role])
            let certified = server.url(database: owned.name, user: role)
            let refused = try runner.run(["search", "bog", "--db", certified])
            #expect(refused.status == 1)
            #expect(refused.standardError == "catalogue: error: cannot connect to \(certified): connection requires a valid client certificate\n")
            let defaults = runner.directory.appendingPathComponent(".postgresql")
            try FileManager.default.createDirectory(at: defaults, withIntermediateDirectories: false)
            _ = try server.makeClientCertificate(commonName: role, in: defaults, name: "postgresql")
            let byDefault = try runner.run(["search", "bog", "--scope", "capital", "--format", "json", "--db", certified])
            #expect(byDefault.status == 0, "\(byDefault.standardError)")
            #expect(try byDefault.jsonNames() == ["Colombia"])
            let elsewhere = runner.directory.appendingPathComponent("client")
            try FileManager.default.moveItem(at: defaults, to: elsewhere)
            let fromEnvironment = try runner.run(
                ["search", "bog", "--scope", "capital", "--format", "json", "--db", certified],
                environment: ["PGSSLCERT": elsewhere.path + "/postgresql.crt", "PGSSLKEY": elsewhere.path + "/postgresql.key"])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.standardError)")
            #expect(try fromEnvironment.jsonNames() == ["Colombia"])
        }
    }
    #else
    @Test("Without the PostgreSQL trait, a postgres:// location says how to build with it, in one line, exit 1")
    func notBuilt() async throws {
        try await onOwnThread {
            let runner = try CommandRunner()
            defer { runner.cleanUp() }
            for arguments in [["search", "bog", "--db", "postgres://app@127.0.0.1:5432/catalogue"], ["index"]] {
                let result = try runner.run(arguments, environment: ["CATALOGUE_DB": "postgresql://app@127.0.0.1/catalogue"])
                #expect(result.status == 1)
                #expect(result.standardOutput.isEmpty)
                #expect(result.standardError == "catalogue: error: this catalogue was built without PostgreSQL support; "
                    + "build it with: swift build --traits PostgreSQL\n")
            }
        }
    }
    #endif
}
