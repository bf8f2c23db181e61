#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for FUZZ_SECONDS (default 60),
# FUZZ_JOBS of them at a time (default: one per core). A fuzzer uses one core; on this 2-core
# machine the same seeded work (-seed=7: 150,000 PredicateFormat inputs, 4,000 SearchText ones)
# took 23.9 s and 19.9 s side by side against 27.3 s and 22.7 s alone, so two at a time cost no
# fuzzing. (A run of 2026-11-27 counted 56-65 % fewer inputs side by side; input counts of
# unseeded runs vary too much to tell, e.g. 109,171 and 377,793 PredicateFormat inputs in 60 s.)
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
jobs_at_once="${FUZZ_JOBS:-$(nproc)}"

# Runs one target; its exit status goes to $scratch/TARGET.status.
fuzz() {
    local target="$1" dir
    dir="$(corpus_dir "$target")"
    # Leak checking is off here: libFuzzer's own bookkeeping and the Swift runtime's globals
    # are reported as leaks; the test suite runs under LeakSanitizer instead.
    local status=0
    ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" "$bin/Fuzz$target" \
        "$scratch/$dir" "Corpus/$dir" \
        -max_total_time="$seconds" -max_len=4096 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="Crashes/$target/" > "$scratch/$target.log" 2>&1 || status=$?
    echo "$status" > "$scratch/$target.status"
}

for target in "${targets[@]}"; do
    dir="$(corpus_dir "$target")"
    mkdir -p "$scratch/$dir" "Crashes/$target"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do
        wait -n || true
    done
    echo "== Fuzz$target for ${seconds}s (corpus Corpus/$dir)"
    fuzz "$target" &
done
wait

failed=0
passed=0
for target in "${targets[@]}"; do
    if [ "$(cat "$scratch/$target.status")" -eq 0 ]; then
        echo "Fuzz$target: $(grep -E "^Done" "$scratch/$target.log" | tail -1)"
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
