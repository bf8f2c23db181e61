#!/usr/bin/env bash
# Drives `--scope` completion of the completion scripts swift-argument-parser generates for
# `catalogue`, in real bash, zsh and fish shells inside tmux: type a command line, press Tab,
# read the candidates on screen. The scopes come from the catalogue (`catalogue` runs itself
# to list them): countries name/capital/any; products all and each product type, including one
# just imported.
#
# Usage: Tests/interactive/completion-test.sh [path/to/catalogue]   (default .build/debug/catalogue)
# Prints "N passed, M failed"; exits 1 on any failure (printing the pane).
set -euo pipefail

BIN=${1:-.build/debug/catalogue}
if [ ! -x "$BIN" ]; then
    echo "completion-test: no executable at $BIN (build it first)" >&2
    exit 2
fi
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
for tool in tmux bash zsh fish; do
    if ! command -v "$tool" >/dev/null; then
        echo "completion-test: $tool is not installed (apt-get install tmux zsh fish)" >&2
        exit 2
    fi
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/catalogue-completion.XXXXXX")
SOCKET_BASE="catalogue-completion-test-$$"
SOCKET="$SOCKET_BASE-bash"
TIMEOUT=${TMUX_TEST_TIMEOUT:-20}
passed=0
failed=0

tm() { tmux -u -L "$SOCKET" -f /dev/null "$@"; }
cleanup() {
    local shell
    for shell in bash zsh fish; do
        tmux -L "$SOCKET_BASE-$shell" kill-server 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/bin" "$WORK/zfunc"
ln -s "$BIN" "$WORK/bin/catalogue"
"$BIN" --generate-completion-script bash >"$WORK/catalogue.bash"
"$BIN" --generate-completion-script zsh >"$WORK/zfunc/_catalogue"
"$BIN" --generate-completion-script fish >"$WORK/catalogue.fish"
DB="$WORK/catalogue.sqlite"
# A type that is not in the seed, so the list can only come from this database.
printf 'name,type\nBrass kettle,kitchenware\n' | "$BIN" import products - --db "$DB" >/dev/null

screen() { tm capture-pane -p -t t; }
shows_all() {
    local deadline=$((SECONDS + TIMEOUT)) pattern ok
    while :; do
        ok=1
        for pattern in "$@"; do
            screen | grep -Eq -- "$pattern" || ok=0
        done
        [ $ok = 1 ] && return 0
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.1
    done
}
lacks() { ! screen | grep -Eq -- "$1"; }
check() {
    local name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "ok - $name"
    else
        failed=$((failed + 1))
        echo "not ok - $name"
        echo "--- pane ---"
        screen
        echo "---"
    fi
}

# start NAME SHELL-COMMAND SETUP-LINE: a shell in a tmux server of its own, set up, then cleared.
start() {
    SOCKET="$SOCKET_BASE-$1"
    shift
    tm new-session -d -x 160 -y 30 -s t "env PATH='$WORK/bin:$PATH' HOME='$WORK' CATALOGUE_DB='$DB' $1"
    sleep 0.5
    tm send-keys -t t -l "$2"
    tm send-keys -t t Enter
    sleep 1
    tm send-keys -t t C-l
    sleep 0.3
}
# complete LINE [TABS]: types LINE and presses Tab (bash lists on the second Tab).
complete_line() {
    tm send-keys -t t -l "$1"
    local tab
    for tab in $(seq "${2:-1}"); do
        tm send-keys -t t Tab
        sleep 0.5
    done
}
reset_line() {
    tm send-keys -t t C-c
    sleep 0.3
    tm send-keys -t t C-l
    sleep 0.3
}

types=('\ball\b' 'birthdays' 'device' 'kitchenware' 'weddings')
for shell in bash zsh fish; do
    case $shell in
        bash) start bash "bash --norc --noprofile" "PS1='$ '; source '$WORK/catalogue.bash'"; tabs=2 ;;
        zsh) start zsh "zsh -f" "PS1='$ '; fpath=('$WORK/zfunc' \$fpath); autoload -Uz compinit; compinit -u"; tabs=1 ;;
        fish) start fish "fish --no-config" "function fish_prompt; echo '$ '; end; source '$WORK/catalogue.fish'"; tabs=1 ;;
    esac
    complete_line "catalogue search --entity products --scope " $tabs
    check "$shell: search --scope lists all and this catalogue's product types" \
        shows_all "${types[@]}"
    reset_line
    complete_line "catalogue search --scope " $tabs
    check "$shell: countries: name, capital, any" shows_all '\bname\b' '\bcapital\b' '\bany\b'
    reset_line
    complete_line "catalogue browse --scope " $tabs
    check "$shell: browse --scope lists the scopes with sections (no any)" \
        eval 'shows_all name capital && lacks "\bany\b"'
    reset_line
    complete_line "catalogue search --entity products --scope kit" 1
    check "$shell: a prefix completes to the type" shows_all 'scope kitchenware'
    reset_line
    tm kill-server 2>/dev/null || true
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
