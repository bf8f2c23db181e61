#if Server
import Testing
@testable import CatalogueServer

/// ``WarningInterval``: a warning at most once per interval.
@Suite("Warning interval")
struct WarningIntervalTests {
    @Test("The first warning is allowed, then none until the interval has passed since it")
    func oncePerInterval() {
        var warnings = WarningInterval(.seconds(60))
        let start = ContinuousClock.now
        let seconds: [Int64] = [0, 1, 59, 60, 119, 120]
        let allowed = seconds.map { warnings.allows(at: start + .seconds($0)) }
        #expect(allowed == [true, false, false, true, false, true])
    }
}
#endif
