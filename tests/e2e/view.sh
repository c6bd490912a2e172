#!/usr/bin/env bash
# The real binary in a real terminal: search, jump to a failure, open the HITL
# tab, quit, and a sane shell afterwards.  Usage: view.sh PATH/TO/niceeval
set -u
BIN=$1
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh
start_shell 140 40

keys "PAGER=true $BIN view assets/demo/session.json" Enter
wait_for 'Timeline · [0-9]+ rows' 20
check "header shows the waiting badge" 'WAITING FOR INPUT'

# Search (case-insensitive) and land on a match.
keys / ; keys -l 'RM -RF' ; keys Enter
wait_for '[0-9]+ matches' 10
check "search found matches" '[0-9]+ matches'

# Jump to the first failure: the failing test run and its output.
keys Escape g e
wait_for 'exit code +1' 10
check "inspector shows the failed tool's output" 'AssertionError: expected 2 rows'
# Ctrl-o goes back to where the jump came from (the top: turn 1), Ctrl-i would go forward.
keys C-o
wait_for 'turn 1  \[Preview\]' 5
keys e
wait_for 'exit code +1' 10

# HITL tab: the waiting request.
keys 3
wait_for 'HITL · 3 requests · 1 waiting' 10
check "waiting request listed" '⏸ waiting +[0-9]+:[0-9]+ +confirm-rotate'

# Usage tab shows the estimate ledger.
keys 4
wait_for 'price key' 10
check "ledger line" 'input +[0-9,]+ +× \$3/MTok'

# Help overlay from the key table.
keys '?'
wait_for 'Keys \(generated from the key table\)' 10
keys Escape
wait_gone 'Keys \(generated' 10

# Ctrl-l redraws at once, and so does the return from the pager (here a
# pager that exits at once): no key press needed to see the screen again.
keys 1
wait_for 'Timeline · [0-9]+ rows' 5
keys C-l
sleep 0.3
wait_for 'Timeline · [0-9]+ rows' 5
keys Tab Tab
keys o
sleep 0.3
wait_for 'Timeline · [0-9]+ rows' 5
check "the viewer is back after the pager" 'WAITING FOR INPUT'

keys q
wait_gone 'Timeline ·' 10
assert_sane_terminal
echo "e2e view: passed"
