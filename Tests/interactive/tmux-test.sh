#!/usr/bin/env bash
# Drives `catalogue interactive` in a real terminal: a private tmux server, an 80×24 window
# running bash, keys sent with `send-keys`, the screen read with `capture-pane`, polled until
# what is expected shows up (or a timeout). Covers typing, scopes, the detail view, Esc back to
# the sections and the index column, letter jumps, quitting every way (Ctrl-C, Ctrl-D, q, F10,
# SIGTERM, SIGHUP, a crash signal) with the terminal restored, relaunching with the state
# restored, resizing, products, suspend, and NO_COLOR.
#
# Usage: Tests/interactive/tmux-test.sh [path/to/catalogue]   (default .build/debug/catalogue)
# Builds nothing. Prints "N passed, M failed"; exits 1 on any failure (printing the pane).
# Start it with no signals blocked: tmux, bash and the program inherit the mask (the Swift test,
# Tests/catalogueTests/InteractiveTmuxTests.swift, spawns it with a clean one).
set -euo pipefail

BIN=${1:-.build/debug/catalogue}
if [ ! -x "$BIN" ]; then
    echo "tmux-test: no executable at $BIN (build it first)" >&2
    exit 2
fi
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
if ! command -v tmux >/dev/null; then
    echo "tmux-test: tmux is not installed" >&2
    exit 2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/catalogue-tmux.XXXXXX")
DB="$WORK/catalogue.sqlite"
STATE="$WORK/state"
SOCKET="catalogue-tmux-test-$$"
TARGET="t"
TIMEOUT=${TMUX_TEST_TIMEOUT:-20}
# After this many seconds in all, waits stop waiting: a broken build fails fast, not in hours.
TOTAL_LIMIT=${TMUX_TEST_TOTAL_LIMIT:-300}
passed=0
failed=0

tm() { tmux -u -L "$SOCKET" -f /dev/null "$@"; }
cleanup() {
    tm kill-server 2>/dev/null || true
    # A program still running in the pane saves its state on the hang-up: let it finish.
    local attempt
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
        rm -rf "$WORK" 2>/dev/null && return 0
        sleep 0.2
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

screen() { tm capture-pane -p -t "$TARGET"; }
keys() { tm send-keys -t "$TARGET" "$@"; }
text() { tm send-keys -t "$TARGET" -l "$1"; }

# Polls the screen until it matches the extended regex $1 (a line of it), or times out.
shows() {
    local deadline=$((SECONDS + TIMEOUT))
    [ $SECONDS -lt "$TOTAL_LIMIT" ] || deadline=$SECONDS
    while :; do
        if screen | grep -Eq -- "$1"; then return 0; fi
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.05
    done
}

# Polls until every pattern matches.
shows_all() {
    local pattern
    for pattern in "$@"; do shows "$pattern" || return 1; done
}

# Records a check: its name, then the command that must succeed.
check() {
    local name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "ok - $name"
    else
        failed=$((failed + 1))
        echo "not ok - $name"
        echo "--- pane ($(tm display -p -t "$TARGET" '#{window_width}x#{window_height}')) ---"
        screen
        echo "---"
    fi
}

# The pid of the program running in the pane's shell.
app_pid() { ps -o pid= --ppid "$(tm display -p -t "$TARGET" '#{pane_pid}')" | tr -d ' ' | head -1; }

launch() {
    text "clear; $BIN interactive --db $DB $*"
    keys Enter
}

# After the program ended: the main screen is back, the shell reads lines again, the exit
# status is $1, and the terminal is in canonical mode with echo and signals.
terminal_restored() {
    local status=$1
    local deadline=$((SECONDS + TIMEOUT))
    [ $SECONDS -lt "$TOTAL_LIMIT" ] || deadline=$SECONDS
    while [ "$(tm display -p -t "$TARGET" '#{alternate_on}')" != 0 ]; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.05
    done
    text 'echo "exit=$? tty=$(stty -a | tr " ;" "\n\n" | grep -Ex -- "-?(isig|icanon|echo)" | paste -sd, -)"'
    keys Enter
    shows "^exit=$status tty=isig,icanon,echo$" || return 1
    text clear
    keys Enter
}

state_file() { cat "$STATE"/catalogue/interactive-*.json 2>/dev/null; }
saved() { state_file | grep -q -- "$1"; }

# Lines of the pane whose last cell is an index title, at the right edge.
index_lines() { screen | grep -Ec -- '  [A-Z#]$' || true; }

refuses_without_terminal() {
    local status=0
    "$BIN" interactive --db "$DB" </dev/null >"$WORK/out" 2>"$WORK/err" || status=$?
    [ "$status" = 1 ] && grep -q '^catalogue: error: interactive mode needs a terminal$' "$WORK/err"
}
check "refuses to start without a terminal (exit 1)" refuses_without_terminal

tm new-session -d -x 80 -y 24 -s "$TARGET" \
    "env -u NO_COLOR PS1='$ ' HOME='$WORK' XDG_STATE_HOME='$STATE' bash --norc --noprofile"
shows '^\$$' || { echo "tmux-test: the shell did not start" >&2; exit 1; }

# --- Browse, search, scopes, detail --------------------------------------------------------
launch
check "opens on the sections: search field, header A, index column" \
    shows_all '^ Search countries: press / to search' '^ A +A$' '^> Afghanistan ' 'countries in [0-9]+ sections'
check "the index column shows titles at the right edge" test "$(index_lines)" -ge 15

expected_co=$("$BIN" search co --db "$DB" --limit 0 | tail -1)
keys /
text co
check "typing 'co' searches names as you type: Colombia, '$expected_co'" \
    shows_all '^ Search countries: co$' ' Colombia +Bogotá' "^ $expected_co "
check "search results show no index column" test "$(index_lines)" = 0

keys Tab
check "Tab selects the Capital scope" shows '\[Capital\]'
keys BSpace BSpace
text "bogotá"
check "typing 'bogotá' (UTF-8) in Capital finds Colombia: 1 item found" \
    shows_all '^ Search countries: bogotá$' '^> Bogotá +Colombia' '^ 1 item found '

keys Enter
check "Enter opens the detail view" \
    shows_all '^ Colombia$' 'Capital +Bogotá' 'Continent +South America' 'Population +49,648,685' 'Currency' 'Languages'
keys Escape
check "Esc closes the detail view" shows '^ 1 item found '

keys Escape
check "Esc ends the search: back to the sections (by capital), Bogotá still selected" \
    shows_all '^ Search countries: press / to search' '^> Bogotá +Colombia' 'countries in [0-9]+ sections'
check "index column back" test "$(index_lines)" -ge 15

keys BTab
check "Shift-Tab back to Name keeps Colombia selected" shows_all '\[Name\]' '^> Colombia '
keys s
check "letter s jumps to section S" shows_all '^ S +[A-Z#]$' '^> Saint Barthélemy '
keys x
check "letter x (no section) jumps to the next one, Y" shows '^> Yemen '
keys Home
check "Home goes to the first record" shows '^> Afghanistan '
keys PPage NPage
check "PgDn moves a page (18 rows) down, into section B" shows_all '^> Bangladesh ' '^ B +[A-Z#]$'
keys Down
check "Down moves one row" shows '^> Barbados '

keys /
text ja
check "/ starts a new search (Djibouti by its alias Jabuuti)" \
    shows_all '^ Search countries: ja$' '^> Djibouti ' '^  Jamaica ' '^  Japan '
keys Down Down
check "Down Down selects Japan" shows '^> Japan '

# --- Quitting and restoring ------------------------------------------------------------------
keys C-c
check "Ctrl-C quits with the terminal restored" terminal_restored 0
check "the state was saved per database under XDG_STATE_HOME" \
    saved '"searchActive":true,"searchText":"ja"'

launch
check "relaunch restores the search text, scope and selection" \
    shows_all '^ Search countries: ja$' '\[Name\]' '^> Japan ' '^ [0-9]+ items found +3 of '
keys C-d
check "Ctrl-D quits with the terminal restored" terminal_restored 0

launch
check "restored again after Ctrl-D" shows '^> Japan '
keys Escape
check "Esc returns to the sections on Japan" shows_all '^> Japan ' '^ J +[A-Z]$'
keys q
check "q quits while browsing" terminal_restored 0
check "browse mode was saved" saved '"searchActive":false'

launch
check "relaunch restores browsing on Japan" shows_all 'press / to search' '^> Japan '

# --- Resizing --------------------------------------------------------------------------------
# The widest line of stdin in characters (UTF-8 continuation bytes dropped; no wide
# characters on these screens).
widest() { LC_ALL=C tr -d '\200-\277' | awk '{ n = length($0); if (n > m) m = n } END { print m + 0 }'; }

tm resize-window -t "$TARGET" -x 100 -y 30
resized_to() {
    local columns=$1 rows=$2
    local deadline=$((SECONDS + TIMEOUT))
    [ $SECONDS -lt "$TOTAL_LIMIT" ] || deadline=$SECONDS
    while [ $SECONDS -lt $deadline ]; do
        local capture
        capture=$(screen)
        # The help line is the last row, and no row is wider than the window.
        if [ "$(printf '%s\n' "$capture" | wc -l)" -eq "$rows" ] \
            && printf '%s\n' "$capture" | sed -n "${rows}p" | grep -q 'quit' \
            && printf '%s\n' "$capture" | sed -n "$((rows - 1))p" | grep -Eq 'countries in' \
            && [ "$(printf '%s\n' "$capture" | widest)" -le "$columns" ]; then
            return 0
        fi
        sleep 0.05
    done
    return 1
}
check "resizing to 100×30 redraws to the new size" resized_to 100 30
check "the index column moves to the new right edge" shows '^> Japan .{80,}  [A-Z]$'
tm resize-window -t "$TARGET" -x 60 -y 16
check "resizing to 60×16 redraws to the new size" resized_to 60 16
tm resize-window -t "$TARGET" -x 80 -y 24
check "back to 80×24" resized_to 80 24
keys F10
check "F10 quits" terminal_restored 0

# --- Signals ---------------------------------------------------------------------------------
launch
check "relaunch after F10: browsing on Japan" shows '^> Japan '
keys /
text peru
check "typing 'peru' finds Peru" shows_all '^> Peru ' '^ 1 item found '
kill -TERM "$(app_pid)"
check "SIGTERM: terminal restored, exit status 143" terminal_restored 143
check "SIGTERM saved the state" saved '"searchText":"peru"'

launch
check "relaunch after SIGTERM: the search restored" shows '^> Peru '
keys BSpace
check "Backspace edits the search text" shows '^ Search countries: per$'
kill -HUP "$(app_pid)"
check "SIGHUP: terminal restored, exit status 129" terminal_restored 129
check "SIGHUP saved the state" saved '"searchText":"per"'

launch
check "relaunch after SIGHUP: the search restored" shows '^ Search countries: per$'
kill -SEGV "$(app_pid)"
check "SIGSEGV (crash): terminal restored, the process dies of the signal (139)" terminal_restored 139

# --- Products, the last entity, suspend, NO_COLOR ---------------------------------------------
launch --entity products
check "products: scope bar with All and each type" shows_all '^ Search products: ' '\[All\]' ' Device ' ' Weddings$'
keys Tab Tab Tab
check "Tab cycles to the Device scope" shows '\[Device\]'
keys /
text ipa
check "'ipa' in Device: iPad and iPad mini" shows_all '^> iPad +device' '^  iPad mini +device' '^ 2 items found '
keys F10
check "F10 quits while searching" terminal_restored 0

launch
check "without --entity the last entity (products) is restored" \
    shows_all '^ Search products: ipa$' '\[Device\]' '^> iPad '
keys C-z
check "Ctrl-Z suspends with the terminal restored" shows 'Stopped'
text fg
keys Enter
check "fg brings the screen back" shows_all '^ Search products: ipa$' '^> iPad '
keys C-c
check "quit after resuming" terminal_restored 0

coloured() { tm capture-pane -p -e -t "$TARGET" | grep -Eq $'\e\\[(3[0-7]|4[0-7]|9[0-7])m'; }
launch --entity countries
check "countries again, the search restored" shows '^ Search countries: per$'
check "colours on a terminal" coloured
keys F10
check "F10 quits (colours)" terminal_restored 0
text "clear; NO_COLOR=1 $BIN interactive --db $DB"
keys Enter
check "NO_COLOR: starts" shows '^ Search countries: per$'
not_coloured() { ! coloured; }
check "NO_COLOR: no colours (reverse video only)" not_coloured
keys F10
check "F10 quits (NO_COLOR)" terminal_restored 0

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
