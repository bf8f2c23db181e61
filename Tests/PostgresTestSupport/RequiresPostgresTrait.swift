import Testing

extension Trait where Self == ConditionTrait {
    /// Runs a test or suite only where a ``PostgresTestServer`` can start. Elsewhere it is
    /// reported as skipped, with the reason and `apt-get install postgresql postgresql-contrib`.
    /// With the `CI` environment variable set it always runs, so a CI machine without
    /// PostgreSQL fails those tests instead of skipping them.
    ///
    /// ```swift
    /// @Suite(.requiresPostgres)
    /// struct PostgresSearchTests {
    ///     @Test func prefix() throws {
    ///         let database = try PostgresTestServer.shared().createDatabase()
    ///         #expect(try database.psql("SELECT 1") == "1\n")
    ///     }
    /// }
    /// ```
    public static var requiresPostgres: Self {
        .enabled(
            if: PostgresTestServer.testsShouldRun(),
            Comment(rawValue: PostgresTestServer.skipReason ?? "needs the PostgreSQL test server"))
    }
}
