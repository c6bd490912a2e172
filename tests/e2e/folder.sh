#!/usr/bin/env bash
# A folder of native agent logs: the list of sessions, newest first; open one
# (read in full), see its timeline, and go back to the list.  Usage: folder.sh PATH/TO/niceeval
set -u
BIN=$1
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh
start_shell 200 40

dir=$(mktemp -d)
cp tests/fixtures/folder/*.jsonl "$dir/"
# Newest first is by when each log was last written.
touch -d '2026-11-01 10:00' "$dir/c3-empty-session.jsonl"
touch -d '2026-11-02 10:00' "$dir/b2-skill-and-odd-lines.jsonl"
touch -d '2026-11-03 10:00' "$dir/a1-fix-tests.jsonl"

keys "$BIN view $dir" Enter
wait_for 'Sessions · 3' 20
check "the first row is the newest session, its first message" '2026-11-03 10:00 Fix the flaky test in parser_spec'
check "a row says its turns, tools and failures" '2 turns · 2 tools · 1 failed'
check "the row's first message is sanitised" 'Make a PDF␛\[31m of the report'
check "an unread session says how it was listed" 'listed from a quick read'

# Open the newest session: read in full, its timeline shown.
keys Enter
wait_for 'read .*a1-fix-tests.jsonl in full' 10
check "the opened session's timeline" 'Timeline · [0-9]+ rows'
check "its tool call" 'Bash \(shell\)'
check "its session in the list" 'session-1 · 1 turn'

# Back to the list: fold the session away, move on to the next one.
keys Enter
wait_gone 'session-1 · 1 turn' 10
keys j
wait_for 'b2-skill-and-odd-lines' 10
check "the list is still there" 'Sessions · 3'

keys q
wait_gone 'Sessions ·' 10
assert_sane_terminal
rm -rf "$dir"
