#!/usr/bin/env bash
# Runs the tests RELIABILITY.md cites for its figures and prints the figure lines they print
# ("crash safety: …", "concurrent load: …"), so the document's figures come from a run.
# Fails when a test fails. About 2 minutes on 2 cores after the build.
#
#   scripts/reliability-figures.sh            # debug build, as `swift test`
set -euo pipefail
cd "$(dirname "$0")/.."
suites='CrashSafetyTests|FullDiskTests|MultiProcessTests|ConcurrentLoadTests|FirstUseTests|ConcurrencyTests|HostileSearchTextTests|SearchCommandTests|WriterWaitTests|OtherUserTests'
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
swift test --filter "$suites" >"$log" 2>&1 || status=$?
grep -E '^(crash safety|full disk|concurrent processes|concurrent load|concurrency \(library\)|first use|first use killed|hostile search text \([a-z]+\)):' "$log" | sort -u
grep -E '^(✔|✘) Test run' "$log"
exit "$status"
