#!/usr/bin/env bash
# Ctrl-Z and SIGTSTP: a suspended viewer leaves the terminal as it found it
# (main screen, mouse reporting off, cursor shown), and on `fg` takes it back:
# the screen is redrawn without a key press and keys act at once (raw mode).
# Usage: suspend.sh PATH/TO/niceeval
set -u
BIN=$1
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh
DIR=$(mktemp -d)
trap 'cleanup; rm -rf "$DIR"' EXIT

# alternate screen, mouse reporting, cursor visible
modes() { T display -p -t e2e '#{alternate_on} #{mouse_any_flag} #{cursor_flag}'; }
expect_modes() { # expect_modes WANT WHEN
  local waited=0
  while [ "$(modes)" != "$1" ]; do
    sleep 0.1
    waited=$((waited + 1))
    if [ "$waited" -ge $((50 * PATIENCE)) ]; then
      echo "FAIL: $2: alternate screen, mouse, cursor = $(modes), expected $1" >&2
      screen >&2
      exit 1
    fi
  done
  echo "ok: $2: alternate screen, mouse, cursor = $1"
}

# resume_and_quit WHEN: `fg` redraws the viewer by itself; `q` alone quits it.
resume_and_quit() {
  keys clear Enter
  wait_gone 'Timeline ·' 10
  keys fg Enter
  wait_for 'Timeline ·' 10
  echo "ok: $1: redrawn after fg"
  expect_modes "1 1 0" "$1: after fg"
  keys q
  wait_gone 'Timeline ·' 5
  echo "ok: $1: q acts without Enter (raw mode is back)"
  wait_for '^E2E\$ ?$' 10
}

printf '%s' '{"status":"completed","events":[{"type":"message","role":"user","text":"first row"},{"type":"message","role":"assistant","text":"second row"}]}' > "$DIR/t.json"
start_shell 120 30

# 1. kill -TSTP from another program.
keys "sh -c 'echo \$\$ > $DIR/pid; exec $BIN view $DIR/t.json'" Enter
wait_for 'Timeline ·' 20
kill -TSTP "$(cat "$DIR/pid")"
wait_for 'Stopped' 10
expect_modes "0 0 1" "kill -TSTP"
resume_and_quit "kill -TSTP"

# 2. Ctrl-Z inside the viewer.
keys clear Enter
keys "$BIN view $DIR/t.json" Enter
wait_for 'Timeline ·' 20
keys C-z
wait_for 'Stopped' 10
expect_modes "0 0 1" "Ctrl-Z"
resume_and_quit "Ctrl-Z"

assert_sane_terminal
echo "e2e suspend: passed"
