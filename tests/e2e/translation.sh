#!/usr/bin/env bash
# The Translation tab in a real terminal, on a Claude Code session log: open
# the tab, select a line, see the events it became, jump to them in the
# timeline, and back with Ctrl-o; then from a row to its line with t.
# Usage: translation.sh PATH/TO/niceeval PATH/TO/claude-code-session.jsonl
set -u
BIN=$1
LOG=$2
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh
start_shell 120 40

keys "$BIN view $LOG" Enter
wait_for 'Timeline · [0-9]+ rows' 20
check "the tab bar offers Translation for a native log" '9 Translation'

keys 9
wait_for 'Translation · 16 lines · 15 events · 1 dropped' 10
check "a dropped line says why" '15 dropped: skill result +user'

# Line 5: the assistant line with the Read tool use.
keys j j j j
wait_for 'line 5 · assistant' 10
check "the inspector shows what the line became" 'became +1:5 +operation.started Read'
check "the inspector shows the line's raw JSON" '"parentUuid": "u-3",'

keys Enter
wait_for 'Timeline · [0-9]+ rows' 10
check "Enter lands on the event in the timeline" 'tool 1:5→6'
check "the row's inspector names its native line" 'from line 5 \(assistant\)'

keys C-o
wait_for 'line 5 · assistant' 10
check "Ctrl-o returns to the native line" 'Translation · 16 lines'

# From a timeline row to its line: the last row came from line 16.
keys 1 G
wait_for 'from line 16 \(assistant\)' 10
keys t
wait_for 'line 16 · assista' 10
check "t jumps from the row to its native line" 'became +1:15 +message assistant'

keys q
wait_gone 'Translation ·' 10
assert_sane_terminal
echo "e2e translation: passed"
