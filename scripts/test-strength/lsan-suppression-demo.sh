#!/usr/bin/env bash
# Issue 13, defect 6 (the LeakSanitizer part): the old `.ci/lsan.supp` (f76cfe2) suppressed any
# leak with `once_slow` in its allocation stack, which is in the stack of every lazily
# initialized global, ours included; today's file names the two test initializers instead.
# Builds a 9-line program that leaks inside a lazily initialized static, with AddressSanitizer,
# and runs it under each file: the old one hides the leak, today's reports it.
#
#   scripts/test-strength/lsan-suppression-demo.sh      # about 20 s
set -uo pipefail
cd "$(dirname "$0")/../.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/leak.swift" <<'SWIFT'
// A leak in a lazily initialized static (swift_once → once_slow is in its allocation stack).
@inline(never) func makeLeak() -> Int {
    let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 16)
    pointer.initialize(to: 42)
    return pointer.pointee  // the pointer is dropped: leaked
}
enum Holder { static let value = makeLeak() }
print(Holder.value)
SWIFT
swiftc -Onone -g -sanitize=address "$work/leak.swift" -o "$work/leak" 2>/dev/null || { echo "FAIL: could not build" >&2; exit 1; }
git show f76cfe2:.ci/lsan.supp >"$work/old.supp"
status=0
LSAN_OPTIONS="suppressions=$work/old.supp" "$work/leak" >"$work/old.out" 2>&1
if grep -q "detected memory leaks" "$work/old.out"; then
    echo "FAIL old .ci/lsan.supp reported the leak"; status=1
else
    echo "PASS old .ci/lsan.supp hid the leak ($(grep -A2 'Suppressions used' "$work/old.out" | tail -1 | tr -s ' '))"
fi
LSAN_OPTIONS="suppressions=$PWD/.ci/lsan.supp" "$work/leak" >"$work/new.out" 2>&1
if grep -q "detected memory leaks" "$work/new.out"; then
    echo "PASS today's .ci/lsan.supp reports it: $(grep -m1 'in \$s4leak8makeLeak' "$work/new.out" | sed 's/^ *//')"
else
    echo "FAIL today's .ci/lsan.supp hid the leak"; status=1
fi
exit "$status"
