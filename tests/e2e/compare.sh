#!/usr/bin/env bash
# The real binary in a real terminal on a real Record with three experiments:
# the matrix first, Enter on a changed row opens the split view of its two
# attempts, Tab switches side, v opens that side in the viewer and Esc comes
# back, q quits to a sane shell.  Usage: compare.sh PATH/TO/niceeval
set -u
BIN=$1
cd "$(dirname "$0")/../.."
RECORD=../shared/samples/niceeval/realrun-report/record
. tests/e2e/lib.sh
need_shared compare "$RECORD"
start_shell 120 35

keys "$BIN view --compare $RECORD" Enter
wait_for '3 experiments · 13 evals · 6 fixed' 20
check "the matrix names the experiments" 'classic/baseline +classic/memory-b +main'
check "a fixed row comes first" '^✓ fixed +classic/recall-constraint +✗ +✓ +·'
check "an unchanged row is there too" 'classic/tool-note +✗ +✗ +·'

# Enter on the changed row: baseline (failed) against memory-b (passed), side by side.
keys Enter
wait_for '✓ fixed +classic/recall-constraint' 10
wait_for 'aligned by turn' 10
check "the before side" '✗ failed @1CJ2NTSS6T1XA'
check "the after side" '✓ passed @1JKJTH22H75S5'
check "before's reply" 'I do not remember this'
check "after's reply" 'I remember this. RECALL_OK'

# The tool-call diff: the same call, its input changed.
keys 2
wait_for '1 input changed' 10
check "the changed input on both sides" '~ ✓ command_execution .*recalled=false.*~ ✓ command_execution .*recalled=true'

# Tab: the before side; v opens it in the viewer, on its tool call.
keys Tab v
wait_for 'Esc \(at the top\) goes back to the comparison' 10
check "Tab chose the before side: the viewer shows its attempt" '✗ failed │ classic/recall-constraint · classic/baseline · attempt 1'
# Two Esc, apart (a terminal may read two at once as one Alt-Esc): the list, then the navigator.
keys Escape
sleep 0.3
keys Escape
wait_for 'aligned by turn|1 input changed' 10
check "back in the split view" '✓ fixed +classic/recall-constraint'

keys Escape
wait_for '3 experiments · 13 evals' 10
keys q
wait_gone '3 experiments ·' 10
assert_sane_terminal
echo "e2e compare: passed"
