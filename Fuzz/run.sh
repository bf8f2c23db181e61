#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for FUZZ_SECONDS (default 60).
# New interesting inputs go to a scratch copy of Corpus/; a crash leaves its input in
# Fuzz/Crashes/TARGET/ and makes the script fail. Turn each crash into a regression test and
# add its input to Corpus/ (see RELIABILITY.md).
#
#   Fuzz/run.sh [TARGET...]      targets: PredicateFormat SearchText CSVReader (default: all)
set -euo pipefail
cd "$(dirname "$0")"
seconds="${FUZZ_SECONDS:-60}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(PredicateFormat SearchText CSVReader)

swift build -c release --sanitize=fuzzer --sanitize=address 2>&1 | grep -E "error|Compiling Fuzz|Build complete" || true
bin="$(swift build -c release --sanitize=fuzzer --sanitize=address --show-bin-path)"

corpus_dir() {
    case "$1" in
        PredicateFormat) echo predicate-format ;;
        SearchText) echo search-text ;;
        CSVReader) echo csv-reader ;;
        *) echo "run.sh: unknown target $1" >&2; exit 2 ;;
    esac
}

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
failed=0
passed=0
for target in "${targets[@]}"; do
    dir="$(corpus_dir "$target")"
    mkdir -p "$scratch/$dir" "Crashes/$target"
    echo "== Fuzz$target for ${seconds}s (corpus Corpus/$dir)"
    # Leak checking is off here: libFuzzer's own bookkeeping and the Swift runtime's globals
    # are reported as leaks; the test suite runs under LeakSanitizer instead.
    if ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" "$bin/Fuzz$target" \
        "$scratch/$dir" "Corpus/$dir" \
        -max_total_time="$seconds" -max_len=4096 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="Crashes/$target/" > "$scratch/$target.log" 2>&1; then
        grep -E "^Done|stat::number_of_executed_units" "$scratch/$target.log" | tail -2
        passed=$((passed + 1))
    else
        echo "Fuzz$target FAILED; last lines of its log:"
        tail -40 "$scratch/$target.log"
        ls -l "Crashes/$target"
        failed=$((failed + 1))
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
