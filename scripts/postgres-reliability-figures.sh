#!/usr/bin/env bash
# Runs the PostgreSQL reliability tests at issue 10's figures and prints the figure lines they
# print ("crash safety (postgres, …): …", "concurrent load (postgres): …"): 300,000-row imports,
# 10 kills of the importing client and 10 immediate server stops that reach a running import,
# and 4 importers with 8 searchers for 30 s. A plain `swift test --traits PostgreSQL` runs the
# crash tests smaller (see PostgresCrashSafetyTests). Fails when a test fails. Needs
# PostgreSQL (apt-get install postgresql postgresql-contrib).
#
#   scripts/postgres-reliability-figures.sh                 # the issue's figures
#   CATALOGUE_PG_CRASH_ROWS=100000 scripts/postgres-reliability-figures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=1
export CATALOGUE_PG_CRASH_ROWS="${CATALOGUE_PG_CRASH_ROWS:-300000}"
export CATALOGUE_PG_CRASH_TRIALS="${CATALOGUE_PG_CRASH_TRIALS:-10}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
swift test --traits PostgreSQL --filter 'PostgresCrashSafetyTests|PostgresConcurrentLoadTests' >"$log" 2>&1 || status=$?
grep -E '^(crash safety \(postgres|concurrent load \(postgres\))' "$log"
grep -E '^(✔|✘) Test run' "$log"
[ "$status" -eq 0 ] || grep -E '✘' "$log" | head -20
exit "$status"
