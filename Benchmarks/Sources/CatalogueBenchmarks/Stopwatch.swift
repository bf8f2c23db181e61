#if canImport(Glibc)
import Glibc
#endif

/// Durations of repeated runs of one workload, in seconds.
struct Samples {
    private(set) var values: [Double] = []

    mutating func append(_ seconds: Double) {
        values.append(seconds)
    }

    mutating func append(contentsOf other: Samples) {
        values += other.values
    }

    var count: Int { values.count }
    var sorted: [Double] { values.sorted() }
    var min: Double { sorted.first ?? .nan }
    var max: Double { sorted.last ?? .nan }
    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }

    func percentile(_ p: Double) -> Double {
        let sorted = self.sorted
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[rank]
    }
}

/// Monotonic time in seconds.
@inline(__always)
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `body` once and returns its duration in seconds.
@inline(__always)
func time(_ body: () throws -> Void) rethrows -> Double {
    let start = now()
    try body()
    return now() - start
}

/// Peak resident set size of this process so far, in bytes.
func peakResidentBytes() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Int(usage.ru_maxrss) * 1024
}

/// Formats seconds as µs or ms for tables.
func formatDuration(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "n/a" }
    if seconds < 1e-3 { return String(format1(seconds * 1e6)) + " µs" }
    if seconds < 1 { return String(format1(seconds * 1e3)) + " ms" }
    return String(format2(seconds)) + " s"
}

func format1(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded >= 100 ? String(Int(rounded.rounded())) : String(rounded)
}

func format2(_ value: Double) -> String {
    String((value * 100).rounded() / 100)
}

/// "1.07x".
func formatRatio(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    return String((value * 100).rounded() / 100) + "x"
}
