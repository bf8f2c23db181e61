#!/usr/bin/env bash
# Drives `catalogue interactive` in a real terminal: a private tmux server, an 80×24 window
# running bash, keys sent with `send-keys`, the screen read with `capture-pane`, polled until
# what is expected shows up (or a timeout). Covers typing, scopes, the detail view, Esc back to
# the sections and the index column, letter jumps, quitting every way (Ctrl-C, Ctrl-D, q, F10,
# SIGTERM, SIGHUP, a crash signal) with the terminal restored, relaunching with the state
# restored, resizing, products, suspend, and NO_COLOR; then the search bar's extras: matches
# highlighted and aliases dimmed, scope counts, the pinned section header, • in a short index,
# the help overlay, the match mode (Ctrl-T, fuzzy included) and the entity (Ctrl-E) switched
# and restored, the selection kept across scopes, "No items found" once (with "did you mean" for a
# misspelling, "found with words" for a word inside a name), a paste taken as search text (a
# 200,000-character one cut to 256), and TERM=dumb refused.
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

# Lines of the pane whose last cell is an index title (or a • for skipped ones), at the right edge.
index_lines() { screen | grep -Ec -- '  [A-Z#•]$' || true; }

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
    shows_all '^ Search countries: co +match: [a-z]+$' ' Colombia +Bogotá' "^ $expected_co "
check "search results show no index column" test "$(index_lines)" = 0

keys Tab
check "Tab selects the Capital scope" shows '\[Capital [0-9]+\]'
keys BSpace BSpace
text "bogotá"
check "typing 'bogotá' (UTF-8) in Capital finds Colombia: 1 item found" \
    shows_all '^ Search countries: bogotá +match: [a-z]+$' '^> Bogotá +Colombia' '^ 1 item found '

keys Enter
check "Enter opens the detail view" \
    shows_all '^ Colombia ' 'Capital +Bogotá' 'Continent +South America' 'Population +49,648,685' 'Currency' 'Languages'
keys Escape
check "Esc closes the detail view" shows '^ 1 item found '

keys Escape
check "Esc ends the search: back to the sections (by capital), Bogotá still selected" \
    shows_all '^ Search countries: press / to search' '^> Bogotá +Colombia' 'countries in [0-9]+ sections'
check "index column back" test "$(index_lines)" -ge 15

keys BTab
check "Shift-Tab back to Name keeps Colombia selected" shows_all '\[Name [0-9]+\]' '^> Colombia '
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
    shows_all '^ Search countries: ja +match: [a-z]+$' '^> Djibouti ' '^  Jamaica ' '^  Japan '
keys Down Down
check "Down Down selects Japan" shows '^> Japan '

# --- Quitting and restoring ------------------------------------------------------------------
keys C-c
check "Ctrl-C quits with the terminal restored" terminal_restored 0
check "the state was saved per database under XDG_STATE_HOME" \
    saved '"searchActive":true,"searchText":"ja"'

launch
check "relaunch restores the search text, scope and selection" \
    shows_all '^ Search countries: ja +match: [a-z]+$' '\[Name [0-9]+\]' '^> Japan ' '^ [0-9]+ items found +3 of '
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
check "the index column moves to the new right edge" shows '^> Japan .{80,}  [A-Z•]$'
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
check "Backspace edits the search text" shows '^ Search countries: per +match: [a-z]+$'
kill -HUP "$(app_pid)"
check "SIGHUP: terminal restored, exit status 129" terminal_restored 129
check "SIGHUP saved the state" saved '"searchText":"per"'

launch
check "relaunch after SIGHUP: the search restored" shows '^ Search countries: per +match: [a-z]+$'
kill -SEGV "$(app_pid)"
check "SIGSEGV (crash): terminal restored, the process dies of the signal (139)" terminal_restored 139

# --- Products, the last entity, suspend, NO_COLOR ---------------------------------------------
launch --entity products
check "products: scope bar with All and each type, with counts" shows_all '^ Search products: ' '\[All [0-9]+\] · Birthdays [0-9]+ · ' ' Device [0-9]+ '
keys BTab
check "Shift-Tab wraps to the last type; the scope bar scrolls to show it" shows '‹ .* · \[Weddings [0-9]+\]'
keys Tab
keys Tab Tab Tab
check "Tab cycles to the Device scope" shows '\[Device [0-9]+\]'
keys /
text ipa
check "'ipa' in Device: iPad and iPad mini" shows_all '^> iPad +device' '^  iPad mini +device' '^ 2 items found '
keys F10
check "F10 quits while searching" terminal_restored 0

launch
check "without --entity the last entity (products) is restored" \
    shows_all '^ Search products: ipa +match: [a-z]+$' '\[Device [0-9]+\]' '^> iPad '
keys C-z
check "Ctrl-Z suspends with the terminal restored" shows 'Stopped'
text fg
keys Enter
check "fg brings the screen back" shows_all '^ Search products: ipa +match: [a-z]+$' '^> iPad '
keys C-c
check "quit after resuming" terminal_restored 0

coloured() { tm capture-pane -p -e -t "$TARGET" | grep -Eq $'\e\\[(3[0-7]|4[0-7]|9[0-7])m'; }
launch countries
check "countries again (named first, as 'catalogue interactive countries'), the search restored" shows '^ Search countries: per +match: [a-z]+$'
check "colours on a terminal" coloured
keys F10
check "F10 quits (colours)" terminal_restored 0
text "clear; NO_COLOR=1 $BIN interactive --db $DB"
keys Enter
check "NO_COLOR: starts" shows '^ Search countries: per +match: [a-z]+$'
not_coloured() { ! coloured; }
check "NO_COLOR: no colours (reverse video only)" not_coloured
keys F10
check "F10 quits (NO_COLOR)" terminal_restored 0

# --- The search bar's extras: highlight, aliases, counts, pinned headers, match modes, --------
# --- entities, help, selection across scopes ---------------------------------------------------
# The pane with its attributes (SGR sequences as tmux writes them).
attributes() { tm capture-pane -p -e -t "$TARGET"; }
# attributes match the Perl regex $1, polling like `shows`.
styled() {
    local deadline=$((SECONDS + TIMEOUT))
    [ $SECONDS -lt "$TOTAL_LIMIT" ] || deadline=$SECONDS
    while :; do
        if attributes | grep -Pq -- "$1"; then return 0; fi
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.05
    done
}
# The first list line (the 4th line of the pane) matches $1.
top_list_line() {
    local deadline=$((SECONDS + TIMEOUT))
    while :; do
        if screen | sed -n 4p | grep -Eq -- "$1"; then return 0; fi
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.05
    done
}
count_lines() { screen | grep -c -- "$1" || true; }

name_co=$("$BIN" search co --db "$DB" --limit 0 --format ndjson | wc -l)
capital_co=$("$BIN" search co --scope capital --db "$DB" --limit 0 --format ndjson | wc -l)
launch --entity countries
check "relaunch for the extras" shows '^ Search countries: per'
keys Escape
check "browsing: the scope bar counts each scope's sectioned list" shows '^ Scope: \[Name 250\] · Capital [0-9]+$'
keys /
text co
check "searching 'co': the scope bar shows each scope's count (Name $name_co · Capital $capital_co)" \
    shows "^ Scope: \\[Name $name_co\\] · Capital $capital_co\$"
check "the matched part is highlighted (bold yellow): Co|lombia" styled '\e\[33mCo(\e\[[0-9;]*m)+lombia'
check "a country found by an alias shows it dimmed after its name" \
    shows_all '^  Dominica — Commonwealth of Dominica ' '^> Bahamas — Commonwealth of the Bahamas '
check "the alias is dimmed, its matched part highlighted" styled 'Dominica\e\[2m — (\e\[[0-9;]*m)*\e\[33m(\e\[[0-9;]*m)*Co(\e\[[0-9;]*m)*\e\[2m|Dominica\e\[2m — (\e\[[0-9;]*m)*\e\[33m(\e\[[0-9;]*m)*Co'
keys C-u
text ku
check "'ku': Cook Islands by its alias, then Kuwait" shows_all '^> Cook Islands — ' '^  Kuwait '
keys Down
check "Kuwait selected" shows '^> Kuwait '
keys Tab
check "Tab to Capital keeps Kuwait selected (second there, after Kuala Lumpur)" \
    shows_all '^  Kuala Lumpur +Malaysia' '^> Kuwait City +Kuwait' '^ 2 items found +2 of 2$'
keys BTab
check "Shift-Tab back to Name: still Kuwait" shows_all '\[Name [0-9]+\]' '^> Kuwait '
keys C-u
text zzzz
check "no results: 'No items found' once on the screen" eval 'shows "^  No items found" && [ "$(count_lines "No items found")" = 1 ]'
keys C-u
text phillipines
check "no results for a misspelling: 'did you mean: Philippines?' under 'No items found'" \
    eval 'shows "^  did you mean: Philippines\?" && screen | grep -n "No items found" | grep -q "^4:"'
keys C-u
text salvador
check "no results another match mode finds: 'found with words: 1' under 'No items found'" \
    eval 'shows "^  found with words: 1 \(Ctrl-T: match mode\)" && screen | grep -n "No items found" | grep -q "^4:"'
keys Escape
keys b
for _ in $(seq 20); do keys Down; done
# Twenty rows down from Bahamas is Burundi: wait for the last key to land before judging the list.
check "deep in section B the top list line is the pinned header B (Bahamas scrolled away)" \
    eval 'shows "^> Burundi " && top_list_line "^ B +[A-Z#•]$" && ! screen | grep -q "^  Bahamas "'
check "on a short terminal, • marks letters left out of the index" \
    eval 'shows "  •$" && [ "$(screen | grep -Ec "  •$")" -ge 5 ]'
tm resize-window -t "$TARGET" -x 80 -y 40
# The short index also ends in Z: wait for the redraw at 40 rows, then for the bullets to go.
no_bullets() { [ "$(screen | grep -Ec "  •$")" = 0 ]; }
eventually_no_bullets() {
    local deadline=$((SECONDS + TIMEOUT))
    until no_bullets; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.05
    done
}
check "on a tall terminal every letter shows, no •" \
    eval 'resized_to 80 40 && shows "^ Z +[A-Z#]$|  Z$" && eventually_no_bullets'
tm resize-window -t "$TARGET" -x 80 -y 24
resized_to 80 24 || true
keys '?'
check "? opens the help overlay listing every key" \
    shows_all '^ Keys$' '^ \^T +match mode' '^ \^E +switch between countries and products' '^ Tab, Shift-Tab ' 'any key closes'
keys x
check "any key closes it (x did not jump)" shows_all 'press / to search' '^> Bolivia|^> B'
keys C-e
check "Ctrl-E switches to products, restored as they were left (Device, 'ipa')" \
    shows_all '^ Search products: ipa +match: prefix' '\[Device [0-9]+\]' '^> iPad '
keys C-u
text "ipod 2007"
check "'ipod 2007' in prefix mode: nothing" shows '^  No items found'
keys C-t
check "Ctrl-T: contains" shows_all 'match: contains$' '\^T match contains'
keys C-t C-t
check "Ctrl-T twice more: terms finds iPod touch, its match highlighted" \
    shows_all 'match: terms$' '^> iPod touch +device +2007' '^ 1 item found ' '\^T match terms'
keys C-u
text "iphnoe 15"
keys C-t
check "Ctrl-T: fuzzy forgives the typo in 'iphnoe 15': iPhone 15 Pro" \
    shows_all 'match: fuzzy$' '^> iPhone 15 Pro +device +2023' '^ 1 item found ' '\^T match fuzzy'
keys C-t C-t C-t C-t
keys C-u
text "ipod 2007"
check "Ctrl-T round to terms again: iPod touch" shows_all 'match: terms$' '^> iPod touch +device +2007'
keys C-e
check "Ctrl-E back to countries: the search there is as it was" shows_all '^ Search countries: +match: prefix|^ Search countries: press / to search' '\^E products'
keys C-e
check "and products again, terms mode kept" shows_all '^ Search products: ipod 2007 +match: terms$' '^> iPod touch '
keys C-c
check "quit on products" terminal_restored 0
check "both entities' states saved, products last" \
    eval 'saved "\"lastEntity\":\"products\"" && saved "\"matchMode\":\"terms\""'
launch
check "relaunch without --entity: products, 'ipod 2007' in terms mode" \
    shows_all '^ Search products: ipod 2007 +match: terms$' '^> iPod touch '
keys C-e
check "Ctrl-E after a relaunch: countries as saved" shows '^ Search countries: '
keys C-c
check "quit" terminal_restored 0

# --- Pasting (tmux's paste-buffer -p brackets a paste when the program asks for it) ---------
launch
shows '^ Search countries: '
keys Escape
check "browsing before the paste" shows '^ Search countries: press / to search'
tm set-buffer -- "qatar
"
tm paste-buffer -p -t "$TARGET"
check "a paste while browsing searches for it: its q does not quit, its line break opens nothing" \
    shows_all '^ Search countries: qatar +match: [a-z]+$' '^> Qatar ' '^ 1 item found '
for _ in $(seq 22223); do printf 'colombia '; done >"$WORK/paste.txt"
keys C-u
tm load-buffer "$WORK/paste.txt"
tm paste-buffer -p -t "$TARGET"
# Every word of it starts a word of Colombia: found when matching words.
check "a 200,000-character paste: its first 256 characters searched" \
    shows_all '^ Search countries: .*colombia colo +match: [a-z]+$' '^  found with words: 1 '
keys C-c
check "quit after the pastes" terminal_restored 0
check "the search text saved is the paste's first 256 characters" \
    saved '"searchText":"\(colombia \)\{28\}colo"'
dumb_refused() {
    text "clear; TERM=dumb $BIN interactive --db $DB"
    keys Enter
    # One line, wrapped by the 80-column pane (-J joins it back).
    local deadline=$((SECONDS + TIMEOUT))
    until tm capture-pane -p -J -t "$TARGET" | grep -Eq -- '^catalogue: error: interactive mode needs a terminal that understands escape sequences, and TERM is .dumb.; use catalogue search or catalogue browse$'; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.05
    done
    text 'echo "exit=$?"'
    keys Enter
    shows '^exit=1$'
}
check "TERM=dumb: one clear error line, exit 1, no escape codes" dumb_refused
check "after TERM=dumb the terminal was never switched" test "$(tm display -p -t "$TARGET" '#{alternate_on}')" = 0

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
