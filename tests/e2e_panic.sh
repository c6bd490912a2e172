#!/usr/bin/env bash
# End-to-end: a panic inside the viewer leaves a sane terminal.
#
# Starts `niceeval view --demo` with NICEEVAL_DEBUG_PANIC_KEY=1 in a shell
# inside tmux (own socket, 120x40, TERM=xterm-256color), presses F12 and
# checks that the panic message and the "please report" line are readable,
# the shell prompt is back, the alternate screen was left, the cursor is
# visible, mouse reporting is off, and `stty -a` shows icanon and echo.
# Then the same after a normal quit (q).
#
# Usage: tests/e2e_panic.sh [path/to/niceeval]   (default: target/debug/niceeval, built if missing)
# Exit: 0 pass, 1 fail, 77 skipped (no tmux).
set -uo pipefail
cd "$(dirname "$0")/.."

BIN=${1:-${NICEEVAL_BIN:-target/debug/niceeval}}
if ! command -v tmux >/dev/null 2>&1; then
    echo "e2e_panic: SKIP (tmux not installed)"
    exit 77
fi
if [[ ! -x $BIN ]]; then
    echo "e2e_panic: building $BIN"
    cargo build --quiet --bin niceeval || { echo "e2e_panic: FAIL (build failed)"; exit 1; }
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

SOCK="niceeval-panic-$$"
T=(tmux -L "$SOCK" -f /dev/null)
PROMPT='e2e-prompt$ '
cleanup() { "${T[@]}" kill-server >/dev/null 2>&1 || true; }
trap cleanup EXIT

fail() {
    echo "e2e_panic: FAIL: $*"
    echo "---- screen ----"
    "${T[@]}" capture-pane -p -J -S -60 -t e2e 2>/dev/null | sed 's/^/| /'
    echo "----------------"
    exit 1
}

screen() { "${T[@]}" capture-pane -p -J -S -200 -t e2e; }
visible() { "${T[@]}" capture-pane -p -J -t e2e; }
flag() { "${T[@]}" display-message -p -t e2e "#{$1}"; }

# wait_for <what> <fixed-string> [timeout-seconds] [visible|history]
wait_for() {
    local what=$1 text=$2 timeout=${3:-20} where=${4:-history} i
    for ((i = 0; i < timeout * 20; i++)); do
        if [[ $where == visible ]]; then
            visible | grep -qF -- "$text" && return 0
        else
            screen | grep -qF -- "$text" && return 0
        fi
        sleep 0.05
    done
    fail "timed out after ${timeout}s waiting for $what ($text)"
}

wait_flag() {
    local name=$1 want=$2 i
    for ((i = 0; i < 200; i++)); do
        [[ $(flag "$name") == "$want" ]] && return 0
        sleep 0.05
    done
    fail "#{$name} is $(flag "$name"), expected $want"
}

"${T[@]}" new-session -d -s e2e -x 120 -y 40 \
    "env -i HOME=\"$HOME\" PATH=\"$PATH\" TERM=xterm-256color PS1='$PROMPT' bash --norc --noprofile -i" ||
    fail "cannot start tmux"
"${T[@]}" resize-window -t e2e -x 120 -y 40 >/dev/null 2>&1 || true
wait_for "the shell prompt" "$PROMPT"

check_sane() {
    local when=$1
    wait_flag alternate_on 0
    wait_flag cursor_flag 1
    [[ $(flag mouse_any_flag) == 0 ]] || fail "$when: mouse reporting still on"
    "${T[@]}" send-keys -t e2e 'clear; stty -a | tr " ;" "\n\n" | grep -xE -- "-?(icanon|echo)" | tr "\n" " "; echo "STTY-""CHECKED"' Enter
    # The typed line reads STTY-""CHECKED: only the output matches, not the echo of the command.
    wait_for "stty output" "STTY-CHECKED" 10 visible
    local line
    line=$(visible | grep -F "STTY-CHECKED" | grep -v "grep" | head -1)
    [[ $line == *"icanon"* && $line != *"-icanon"* ]] || fail "$when: icanon is off: $line"
    [[ " $line" == *" echo "* ]] || fail "$when: echo is off: $line"
    # Typing shows up again (echo works, the line discipline is cooked).
    "${T[@]}" send-keys -t e2e 'echo typed-$((40+2))' Enter
    wait_for "typed command output" "typed-42" 10 visible
    visible | grep -qF "${PROMPT}" || fail "$when: no shell prompt on screen"
    echo "e2e_panic: ok: $when: prompt back, main screen, cursor visible, mouse off, icanon and echo on"
}

# 1. Panic on purpose.
"${T[@]}" send-keys -t e2e "clear; NICEEVAL_DEBUG_PANIC_KEY=1 '$BIN' view --demo; echo \"EXIT=\$?\"" Enter
wait_flag alternate_on 1
wait_for "the viewer" "Timeline" 30 visible
"${T[@]}" send-keys -t e2e F12
wait_for "the exit status" "EXIT=" 20
out=$(screen)
grep -qF "panic requested with the debug key" <<<"$out" || fail "panic message not readable"
grep -qF "please report" <<<"$out" || fail "the 'please report' line is missing"
grep -qF "EXIT=101" <<<"$out" || fail "expected exit status 101 after a panic: $(grep -F EXIT= <<<"$out")"
# The message is on the main screen, not lost with the alternate screen, and not garbled by raw mode
# (in raw mode newlines do not return the carriage, so lines would start mid-screen).
msg=$(grep -F "please report" <<<"$out" | head -1)
[[ $msg == niceeval* ]] || fail "the report line is not at column 0 (raw mode still on?): '$msg'"
echo "e2e_panic: ok: panic message and report line readable, exit 101"
check_sane "after the panic"

# 2. A normal quit.
"${T[@]}" send-keys -t e2e "clear; '$BIN' view --demo; echo \"EXIT=\$?\"" Enter
wait_flag alternate_on 1
wait_for "the viewer" "Timeline" 30 visible
"${T[@]}" send-keys -t e2e q
wait_for "the exit status" "EXIT=0" 20 visible
check_sane "after q"

echo "e2e_panic: PASS"
exit 0
