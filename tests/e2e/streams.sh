#!/usr/bin/env bash
# Streams given as paths and the loading line: `view --follow FIFO` shows lines
# as a writer sends them and says when the stream ends; a load that fails
# after the loading line was shown prints its error on a line of its own.
# Usage: streams.sh PATH/TO/niceeval
set -u
BIN=$1
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh
DIR=$(mktemp -d)
WRITER=
trap '[ -n "$WRITER" ] && kill "$WRITER" 2>/dev/null; cleanup; rm -rf "$DIR"' EXIT
start_shell 130 36

# 1. --follow on a FIFO.
mkfifo "$DIR/fifo"
writer() {
  exec </dev/null >/dev/null 2>&1
  exec >"$DIR/fifo"
  printf '%s\n' '{"type":"message","role":"assistant","text":"from the fifo, one"}'
  sleep 1
  printf '%s\n' '{"type":"message","role":"assistant","text":"from the fifo, two"}'
  exec sleep 3
}
writer &
WRITER=$!
keys "$BIN view --follow $DIR/fifo" Enter
wait_for 'from the fifo, one' 20
wait_for 'from the fifo, two' 20
echo "ok: lines sent to the FIFO appear as they come"
wait_for 'the stream ended' 20
echo "ok: the end of the stream is told"
WRITER=
keys q
wait_gone 'Timeline ·' 10
assert_sane_terminal

# 2. A load slow enough to show the loading line, which then fails.
awk 'BEGIN {
  pad = sprintf("%360s", ""); gsub(/ /, "x", pad)
  printf "{\"status\":\"completed\",\"events\":["
  for (i = 1; i <= 50000; i++) printf "%s{\"type\":\"message\",\"role\":\"assistant\",\"text\":\"event %d %s\"}", (i > 1 ? "," : ""), i, pad
  printf "]} trailing garbage\n"
}' > "$DIR/broken.json"
keys clear Enter
keys "$BIN view $DIR/broken.json" Enter
wait_for 'broken\.json:[0-9]+:[0-9]+:' 60
if screen | grep -q 'loading'; then
  echo "FAIL: the loading line was not ended before the error" >&2
  screen >&2
  exit 1
fi
check "the error starts its own line" '^niceeval: .*broken\.json:[0-9]+:[0-9]+: '
assert_sane_terminal
echo "e2e streams: passed"
