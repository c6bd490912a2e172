#!/usr/bin/env bash
# Keys that reach outside the viewer or change its reading, as a user meets
# them: `o` pages a string output as text, a $PAGER that does not exist is
# said on the screen, `F` on a file read once says it cannot follow, and in
# raw-event mode (`m`) a tool start reads its own position.
# Usage: keys.sh PATH/TO/niceeval
set -u
BIN=$1
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh
DIR=$(mktemp -d)
trap 'cleanup; rm -rf "$DIR"' EXIT
cat > "$DIR/turn.json" <<'JSON'
{"status":"completed","events":[
 {"type":"message","role":"assistant","text":"listing"},
 {"type":"operation.started","operationId":"c1","operation":{"kind":"tool","name":"bash","input":"ls -l"}},
 {"type":"operation.finished","operationId":"c1","kind":"tool","status":"completed","output":"line \"one\"\nline two"}]}
JSON
start_shell 120 30

# A pager that writes what it is given to a file: the text, not its JSON.
keys "PAGER='tee $DIR/paged' $BIN view $DIR/turn.json" Enter
wait_for 'Timeline · [0-9]+ rows' 20
keys G
wait_for 'bash ls -l' 10
keys o
waited=0
until [ -s "$DIR/paged" ]; do
  sleep 0.1; waited=$((waited + 1))
  [ "$waited" -ge $((100 * PATIENCE)) ] && { echo "FAIL: nothing was paged" >&2; screen >&2; exit 1; }
done
sleep 0.5
if grep -q '\\n' "$DIR/paged" || ! grep -qx 'line "one"' "$DIR/paged"; then
  echo "FAIL: the pager got JSON, not the text:" >&2; cat "$DIR/paged" >&2; exit 1
fi
echo "ok: o pages a string output as its text"
wait_for 'Timeline · [0-9]+ rows' 10

keys F
check "F on a static file says it cannot follow" 'not following: this file was read once'

keys m
wait_for 'raw events' 10
check "a raw start row reads its own position" '│1:2 +. ⚙ tool +bash ls -l \(finished at'
keys q
wait_for 'E2E\$' 10

# A pager that does not exist is said, not silent.
keys "clear; PAGER=niceeval-no-such-pager $BIN view $DIR/turn.json" Enter
wait_for 'Timeline · [0-9]+ rows' 20
keys G o
check "a missing pager is said" 'cannot open the pager niceeval-no-such-pager: not found'
keys q
assert_sane_terminal
