#!/usr/bin/env bash
# Runs the ten reproductions of issue 13 ("Keep every promise in RELIABILITY.md under a hostile
# user") against a built binary, each on a fresh temporary directory, and prints one line per
# check: "ok" or "FAIL" with what was seen. Exits 1 if any check fails.
#
#   swift build -c release --product catalogue
#   scripts/hostile-reproductions.sh .build/release/catalogue
#
# Needs sqlite3, python3, and (for item 7, as root) setpriv. About a minute on 2 cores.
set -uo pipefail
binary="$(realpath "${1:?usage: $0 path/to/catalogue}")"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
failures=0
checks=0

ok() { checks=$((checks + 1)); echo "ok   $1"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL $1"; }
# check NAME COMMAND...: ok when the command succeeds.
check() {
    local name="$1"
    shift
    if "$@"; then ok "$name"; else fail "$name"; fi
}
fresh() { mktemp -d "$root/XXXX"; }
digest() { sha256sum "$1" | cut -d' ' -f1; }
products_csv() { # products_csv FILE ROWS [PREFIX]
    python3 - "$1" "$2" "${3:-Product}" <<'EOF'
import sys
path, rows, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "w") as out:
    out.write("name,type,year,price\n")
    for i in range(rows):
        out.write(f"{prefix} {i:07d},thing,{1990 + i % 30},{i % 1000}.5\n")
EOF
}
c() { "$binary" "$@"; }

echo "== 1. a second writer waits for the first, however long it takes"
D="$(fresh)"
products_csv "$D/big.csv" 1000000 Big
products_csv "$D/one.csv" 1 One
c search x --db "$D/c.db" >/dev/null
"$binary" import products "$D/big.csv" --db "$D/c.db" >"$D/first.out" 2>&1 &
first=$!
sleep 1
start=$SECONDS
c import products "$D/one.csv" --db "$D/c.db" >"$D/second.out" 2>&1
second=$?
wait "$first"
firstStatus=$?
echo "     first import exit $firstStatus, second exit $second after $((SECONDS - start)) s: $(tr '\n' ' ' <"$D/second.out")"
check "1: both imports succeed" test "$firstStatus" = 0 -a "$second" = 0
count="$(sqlite3 "$D/c.db" "select count(*) from product where name like 'Big %' or name like 'One %'")"
check "1: both imports' rows are there (1,000,001 = $count)" test "$count" = 1000001
check "1: --wait-timeout 1 gives up with one line while another import holds the lock" bash -c '
    c() { "$0" "$@"; }
    D="$1"
    (sqlite3 "$D/c.db" <<SQL >/dev/null 2>&1 &
begin immediate;
.shell sleep 4
commit;
SQL
    )
    sleep 1
    out="$(c import products "$D/one.csv" --db "$D/c.db" --wait-timeout 1 2>&1)"
    status=$?
    wait
    echo "     $out"
    test $status = 1 -a "$(printf "%s\n" "$out" | grep -c .)" = 1' "$binary" "$D"

echo "== 2. a foreign SQLite file is refused and left untouched"
D="$(fresh)"
sqlite3 "$D/o.db" "create table t(x); insert into t values (1)"
before="$(digest "$D/o.db")"
out="$(c export products --db "$D/o.db" 2>&1)"
status=$?
echo "     exit $status: $out"
check "2: export refuses it (exit 1, 'is a SQLite database but not a catalogue')" \
    test "$status" = 1 -a -n "$(printf "%s" "$out" | grep 'is a SQLite database but not a catalogue')"
check "2: the file is unchanged" test "$before" = "$(digest "$D/o.db")"
for command in "search x" "import products $D/o.db" "show Peru" "browse"; do
    c $command --db "$D/o.db" >/dev/null 2>&1
done
check "2: search, import, show, browse leave it unchanged too" test "$before" = "$(digest "$D/o.db")"

echo "== 3. a corrupt catalogue is never written to"
D="$(fresh)"
c search x --db "$D/c.db" >/dev/null
sqlite3 "$D/c.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
page="$(sqlite3 "$D/c.db" "SELECT max(pageno) FROM dbstat WHERE name = 'country'")"
size="$(sqlite3 "$D/c.db" "PRAGMA page_size")"
python3 - "$D/c.db" $(((page - 1) * size + 8)) <<'EOF'
import sys
path, offset = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
data[offset] ^= 0x40
open(path, "wb").write(data)
EOF
before="$(digest "$D/c.db")"
printf 'name,type\nFine product,thing\n' >"$D/ok.csv"
out="$(c import products "$D/ok.csv" --db "$D/c.db" 2>&1)"
status=$?
echo "     exit $status: $out"
check "3: the import is refused with 'database disk image is malformed'" \
    test "$status" = 1 -a -n "$(printf "%s" "$out" | grep 'database disk image is malformed')"
check "3: the file is unchanged" test "$before" = "$(digest "$D/c.db")"
python3 - "$D/c.db" $(((page - 1) * size)) <<'EOF'
import sys
path, offset = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
data[offset] = 0x0C
open(path, "wb").write(data)
EOF
out="$(c export countries --db "$D/c.db" 2>&1 >/dev/null)"
echo "     read of a damaged page: $out"
check "3: corruption met while reading is one short line without SQL" \
    test "$(printf "%s\n" "$out" | grep -c .)" = 1 -a "${#out}" -lt 200

echo "== 4. any number of concurrent first uses succeed"
D="$(fresh)"
failed=0
for round in $(seq 15); do
    pids=()
    for k in $(seq 12); do
        "$binary" search co --db "$D/new$round.db" >/dev/null 2>"$D/err.$round.$k" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
done
echo "     $failed of 180 processes failed"
check "4: 180 of 180 concurrent first uses succeed" test "$failed" = 0
whole=0
empty=0
broken=0
hits=0
for trial in $(seq 10); do
    "$binary" search co --db "$D/killed$trial.db" >/dev/null 2>&1 &
    pid=$!
    sleep "$(printf '0.%02d' $((trial * 4)))"
    kill -9 "$pid" 2>/dev/null && hits=$((hits + 1))
    wait "$pid" 2>/dev/null
    if [ ! -e "$D/killed$trial.db" ]; then
        empty=$((empty + 1))
    elif [ "$(sqlite3 "$D/killed$trial.db" "select count(*) > 200 from country" 2>/dev/null)" = 1 ]; then
        whole=$((whole + 1))
    else
        broken=$((broken + 1))
    fi
    c search co --db "$D/killed$trial.db" >/dev/null 2>&1 || broken=$((broken + 1))
done
echo "     SIGKILL during first use ($hits of 10 kills hit a running process): $empty left nothing, $whole a whole catalogue, $broken otherwise"
check "4: a killed first use leaves nothing or a whole catalogue, and the next use works" test "$broken" = 0

echo "== 5. deeply nested JSON is refused, not a crash"
D="$(fresh)"
# A field holding 2,080 nested arrays, on line 2 of each file (the size that crashed before).
python3 -c 'd = "[" * 2080 + "]" * 2080; print("[\n{\"name\": " + d + ", \"type\": \"x\"}]")' >"$D/deep.json"
python3 -c 'd = "[" * 2080 + "]" * 2080; print("{\"name\": \"ok\", \"type\": \"x\"}\n{\"name\": " + d + ", \"type\": \"x\"}")' >"$D/deep.ndjson"
c search x --db "$D/c.db" >/dev/null
for file in deep.json deep.ndjson; do
    out="$(c import products "$D/$file" --db "$D/c.db" 2>&1)"
    status=$?
    echo "     $file: exit $status: $out"
    check "5: $file: exit 1 with 'FILE:2: nesting deeper than 64 levels'" \
        test "$status" = 1 -a "$out" = "catalogue: error: $D/$file:2: nesting deeper than 64 levels"
done
check "5: no -wal or -shm left behind" test ! -e "$D/c.db-wal" -a ! -e "$D/c.db-shm"

echo "== 6. terminal escapes in names are shown escaped in tables, exact in JSON"
D="$(fresh)"
printf 'name,type\n"Evil\x1b]0;PWNED\x07\x1b[2Jname",thing\n' >"$D/evil.csv"
c import products "$D/evil.csv" --db "$D/c.db" >/dev/null
id="$(c search Evil --entity products --format json --db "$D/c.db" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')"
for command in "search Evil --entity products" "show $id --entity products" "browse --entity products"; do
    c $command --db "$D/c.db" >"$D/out" 2>&1
    if grep -q $'\x1b' "$D/out" || grep -q $'\x07' "$D/out"; then
        fail "6: '$command' writes a raw escape to the table"
    else
        ok "6: '$command' shows no raw control character: $(grep -ao 'Evil[^ ]*' "$D/out" | head -1)"
    fi
done
c export products --format json --db "$D/c.db" >"$D/out.json"
check "6: JSON export keeps the exact text" \
    python3 -c 'import json,sys; names=[p["name"] for p in json.load(open(sys.argv[1]))]; sys.exit(0 if "Evil\x1b]0;PWNED\x07\x1b[2Jname" in names else 1)' "$D/out.json"

echo "== 7. a read by another user leaves nothing the owner cannot use"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    chmod 755 "$root"
    D="$(fresh)"
    chmod 1777 "$D"
    c search x --db "$D/c.db" >/dev/null
    chmod 644 "$D/c.db"
    out="$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$binary" search co --db "$D/c.db" 2>&1 | head -3)"
    echo "     search as nobody: $out"
    owned="$(find "$D" -user nobody | wc -l)"
    check "7: no file in the directory is owned by nobody ($owned)" test "$owned" = 0
    printf 'name,type\nOwner product,thing\n' >"$D/p.csv"
    check "7: the owner's import then succeeds" c import products "$D/p.csv" --db "$D/c.db"
else
    fail "7: not run (needs root and setpriv to act as nobody)"
fi

echo "== 8. seeding happens once: a missing seeded_at row does not reseed"
D="$(fresh)"
c search x --db "$D/c.db" >/dev/null
printf 'code,name\nPE,Renamed Peru\n' >"$D/peru.csv"
c import countries "$D/peru.csv" --db "$D/c.db" >/dev/null
sqlite3 "$D/c.db" "delete from catalogue_info where key = 'seeded_at'" 2>/dev/null
c search x --db "$D/c.db" >/dev/null
c import products "$D/peru.csv" --db "$D/c.db" >/dev/null 2>&1
name="$(sqlite3 "$D/c.db" "select name from country where code = 'PE'")"
check "8: the renamed country keeps its name ($name)" test "$name" = "Renamed Peru"

echo "== 9. a failed write to standard output is an error"
D="$(fresh)"
c search x --db "$D/c.db" >/dev/null
for command in "search co" "browse" "index" "show PE"; do
    out="$(c $command --db "$D/c.db" 2>&1 >/dev/full)"
    status=$?
    check "9: '$command' to /dev/full: exit $status, '$out'" test "$status" = 1 -a "$(printf "%s\n" "$out" | grep -c .)" = 1
done
c search "" --db "$D/c.db" 2>"$D/epipe.err" | head -1 >/dev/null
err="$(cat "$D/epipe.err")"
check "9: a closed pipe (EPIPE) stays quiet (stderr: '$err')" test -z "$err"

echo "== 10. smaller ones"
D="$(fresh)"
c search x --db "$D/c.db" >/dev/null
printf 'name,type\nRO product,thing\n' >"$D/p.csv"
chmod 444 "$D/c.db"
if [ "$(id -u)" = 0 ]; then chattr +i "$D/c.db"; fi
out="$(c import products "$D/p.csv" --dry-run --db "$D/c.db" 2>&1)"
status=$?
echo "     --dry-run on a read-only file: exit $status: $out"
check "10: --dry-run works on a read-only file, no 'while executing'" test "$status" = 0 -a -z "$(printf "%s" "$out" | grep 'while executing')"
out="$(c import products "$D/p.csv" --db "$D/c.db" 2>&1)"
echo "     import into a read-only file: $out"
check "10: an import into a read-only file: one clear line, no SQL" \
    test "$(printf "%s\n" "$out" | grep -c .)" = 1 -a -z "$(printf "%s" "$out" | grep -i 'while executing\|DROP TRIGGER')"
if [ "$(id -u)" = 0 ]; then chattr -i "$D/c.db"; fi
chmod 644 "$D/c.db"
sqlite3 "$D/c.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
before="$(digest "$D/c.db")"
printf 'name,type,year,price\n' >"$D/header.csv"
c import products "$D/header.csv" --db "$D/c.db" >/dev/null 2>&1
sqlite3 "$D/c.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
check "10: a header-only import leaves the file unchanged" test "$before" = "$(digest "$D/c.db")"
for value in "year 0x7D0" "year +2000" "year 2e3" "price 1." "year 0x1p3" "price 1e-400"; do
    set -- $value
    if [ "$1" = year ]; then row="Num product,thing,$2,"; else row="Num product,thing,,$2"; fi
    printf 'name,type,year,price\n%s\n' "$row" >"$D/n.csv"
    out="$(c import products "$D/n.csv" --db "$D/c.db" 2>&1)"
    status=$?
    check "10: $1 '$2' refused naming file, line and field: $out" \
        test "$status" = 1 -a -n "$(printf "%s" "$out" | grep -F "n.csv:2: $1:")"
done
before="$(sqlite3 "$D/c.db" "select capital, population, currency_code from country where code = 'PE'")"
printf 'code,name\nPE,Peru again\n' >"$D/cn.csv"
c import countries "$D/cn.csv" --db "$D/c.db" >/dev/null
after="$(sqlite3 "$D/c.db" "select capital, population, currency_code from country where code = 'PE'")"
check "10: importing code,name keeps the other fields ($after)" test "$before" = "$after" -a -n "$after"
products_csv "$D/mid.csv" 200000 Mid
"$binary" import products "$D/mid.csv" --db "$D/c.db" >"$D/sig.out" 2>"$D/sig.err" &
pid=$!
# Wait for the commit (the rows are visible), then signal before the summary is printed.
for _i in $(seq 400); do
    seen="$(sqlite3 "$D/c.db" "select count(*) from product where name like 'Mid %'" 2>&1)"
    [ "$seen" = 200000 ] && break
    sleep 0.02
done
echo "     polled $_i times; rows seen: $seen"
kill -TERM "$pid" 2>/dev/null
wait "$pid"
status=$?
echo "     a signal after the commit: exit $status: $(cat "$D/sig.out" "$D/sig.err" | tr '\n' ' ')"
check "10: a signal after the commit still says the import was committed (summary or 'committed')" \
    test -n "$(cat "$D/sig.out" "$D/sig.err" | grep -i 'committed\|imported')"
mkfifo "$D/fifo"
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$D/sock"
for path in /dev/null "$D/fifo" "$D/sock"; do
    out="$(timeout 10 "$binary" search x --db "$path" 2>&1)"
    check "10: --db $path: says what it is, no advice to remove it: $out" \
        test -n "$(printf "%s" "$out" | grep 'character device\|FIFO\|socket')" -a -z "$(printf "%s" "$out" | grep -i remove)"
done
printf '[\n  {\n    "name": "Json product",\n    "type": "thing",\n    "year": "soon"\n  }\n]\n' >"$D/j.json"
out="$(c import products "$D/j.json" --db "$D/c.db" 2>&1)"
echo "     a bad field on line 5 of a JSON file: $out"
check "10: JSON errors name the line of the field, as --help says" \
    test -n "$(printf "%s" "$out" | grep -F "j.json:5: year:")" -a -n "$(c import --help | grep -i 'line')"

echo "$((checks - failures)) passed, $failures failed"
[ "$failures" = 0 ]
