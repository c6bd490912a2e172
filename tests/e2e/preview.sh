#!/usr/bin/env bash
# A large JSONL stream opens on a preview of its start at once, says how far
# the background load has got, and is replaced by the whole file when done:
# the last event (only in the whole file) is then found by search.
# Usage: preview.sh PATH/TO/niceeval
set -u
BIN=$1
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh
DIR=$(mktemp -d)
F="$DIR/big.jsonl"
trap 'cleanup; rm -rf "$DIR"' EXIT
# ~48 MB: above the 32 MB preview threshold; 120 000 events of ~400 bytes.
awk 'BEGIN {
  pad = sprintf("%360s", ""); gsub(/ /, "x", pad)
  for (i = 1; i <= 120000; i++) printf "{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"event %d %s\"}\n", i, pad
  printf "{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"the-very-last-event\"}\n"
}' > "$F"
start_shell 160 40
keys "NICEEVAL_TIMING=1 $BIN view $F 2>$DIR/timing.txt" Enter
wait_for 'preview of the first [0-9]\.[0-9] MB' 20
check "the preview shows the first events" 'event 1 xxxx'
wait_for 'loaded all [0-9.]+ MB: 120,001 events' 120
check "the header counts every event of the whole file" '1 turn · 120,001 events'
check "the inspector shows the whole turn, not the preview's" '120,001 events'
keys / 'the-very-last-event' Enter
wait_for '1 match\b' 20
check "an event only in the whole file is found" 'the-very-last-event'
keys q
wait_gone 'Timeline ·' 10
assert_sane_terminal
first=$(sed -n 's/^niceeval: first frame after \([0-9.]*\) ms$/\1/p' "$DIR/timing.txt")
whole=$(sed -n 's/^niceeval: whole file loaded and shown after \([0-9.]*\) ms$/\1/p' "$DIR/timing.txt")
[ -n "$first" ] && [ -n "$whole" ] || { echo "FAIL: no timing lines:" >&2; cat "$DIR/timing.txt" >&2; exit 1; }
echo "ok: first frame after $first ms; the whole file after $whole ms"
awk -v f="$first" -v w="$whole" 'BEGIN { exit !(f < w) }' || { echo "FAIL: the first frame did not come before the whole load" >&2; exit 1; }
echo "e2e preview: passed"
