#!/usr/bin/env bash
# --follow: events appended by an adapter appear without a key press; a partial
# last line waits for its newline; a bad line is said and counted; truncation (also to 0 bytes) and a delete
# followed by a new file are detected and reloaded.
# Usage: follow.sh PATH/TO/niceeval
set -u
BIN=$1
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh
DIR=$(mktemp -d)
F="$DIR/stream.jsonl"
trap 'cleanup; rm -rf "$DIR"' EXIT
printf '%s\n' '{"type":"message","role":"assistant","text":"starting the export"}' > "$F"
start_shell 130 36
keys "$BIN view --follow $F" Enter
wait_for 'starting the export' 20

printf '%s\n' '{"type":"operation.started","operationId":"c1","operation":{"kind":"tool","name":"Bash","input":{"command":"make export"},"tool":"shell"}}' >> "$F"
wait_for 'Bash \(shell\) \$ make export' 10
check "appended tool start is shown, pending" '… ⚙ tool +Bash'

printf '%s\n' '{"type":"operation.finished","operationId":"c1","kind":"tool","status":"failed","output":{"exit_code":2,"stdout":"","stderr":"boom"}}' >> "$F"
wait_for '✗ ⚙ tool +Bash' 10
check "the finish merges into the lifecycle row as failed" '✗ ⚙ tool +Bash'

# A partial line waits for its newline.
printf '%s' '{"type":"message","role":"assistant","text":"half a li' >> "$F"
sleep 1
if screen | grep -q 'half a li'; then echo "FAIL: a partial line was shown" >&2; screen >&2; exit 1; fi
echo "ok: partial line not shown"
printf '%s\n' 'ne, now complete"}' >> "$F"
wait_for 'half a line, now complete' 10
check "completed line shown" 'half a line, now complete'

# A line that is not JSON is skipped, said on the footer, and counted as a finding.
printf '%s\n' '{"type":"message","role":"assistant","text":"broken' >> "$F"
wait_for 'line 5 skipped' 10
check "the skipped line is an input-line-skipped finding" 'line 5 skipped: an input-line-skipped error'
check "the header counts it" '1 error'

# Truncation: the file is rewritten shorter.
printf '%s\n' '{"type":"message","role":"assistant","text":"fresh start after truncation"}' > "$F"
wait_for 'fresh start after truncation' 10
check "truncation reloaded" 'truncated; reloaded|replaced; reloaded'

# Truncated to 0 bytes: the old events go, and the footer says why.
: > "$F"
wait_for 'truncated to 0 bytes' 10
wait_gone 'fresh start after truncation' 10
echo "ok: a file truncated to 0 shows no stale events"

# Deleted, then created again: the new content replaces the "disappeared" notice.
printf '%s\n' '{"type":"message","role":"assistant","text":"before the delete"}' >> "$F"
wait_for 'before the delete' 10
rm "$F"
wait_for 'disappeared' 10
printf '%s\n' '{"type":"message","role":"assistant","text":"born again"}' > "$F"
wait_for 'born again' 10
wait_gone 'disappeared' 10
echo "ok: a file deleted and created again is followed again"

keys q
wait_gone 'Timeline ·' 10

# Started before the adapter writes: a file that does not exist yet is
# waited for, as tail -F does, and its first lines are shown when they come.
LATE="$DIR/late.jsonl"
keys "$BIN view --follow $LATE" Enter
wait_for 'does not exist yet' 10
printf '%s' '{"type":"message","role":"assistant","text":"first words of the late file"' > "$LATE"
wait_for 'appeared|no complete line' 10
printf '%s\n' '}' >> "$LATE"
wait_for 'first words of the late file' 10
echo "ok: a missing file is waited for"
keys q
wait_gone 'Timeline ·' 10

# An empty file is waited for too.
: > "$DIR/empty.jsonl"
keys "$BIN view --follow $DIR/empty.jsonl" Enter
wait_for 'is empty; waiting' 10
printf '%s\n' '{"type":"message","role":"assistant","text":"no longer empty"}' >> "$DIR/empty.jsonl"
wait_for 'no longer empty' 10
echo "ok: an empty file is waited for"
keys q
wait_gone 'Timeline ·' 10
assert_sane_terminal
echo "e2e follow: passed"
