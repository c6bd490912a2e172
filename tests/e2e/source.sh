#!/usr/bin/env bash
# A Record attempt with its eval source and sandbox commands, in a real
# terminal: it opens on where its failure began, the header says how long it
# took and what evidence it has; the Source tab shows the eval file with its
# gutter; `t` goes from the turn to its send line, Enter from the send line
# to the turn, Ctrl-o back to the line; the Commands tab lists the commands
# and Enter opens one's interval in the Timing tab, Ctrl-o back; q quits to
# a sane shell.  Usage: source.sh PATH/TO/niceeval
set -u
BIN=$1
cd "$(dirname "$0")/../.."
RECORD=../shared/samples/niceeval/generated/record-e2e-eval/record
. tests/e2e/lib.sh
need_shared source "$RECORD"
start_shell 160 45

keys "$BIN view $RECORD @14R83JM9GP1Z2" Enter
wait_for '⚑ where it began' 20
check "the header says how long it took" 'took 424ms \(eval.run\)'
check "the header says which evidence it has" 'evidence source · execution · timing · diff'

keys 0
wait_for 'Eval source · 2 files' 10
check "the Source tab marks the send line" '│→ turn 1 +24 │ +const turn = await t\.send\("assertion/sandbox"'
check "and a failed assertion line" '│✗ +32 │ +t\.sandbox\.changedPaths\(\['

# From the turn to its send line.
keys 1 g t
wait_for 'evals/assertion-sandbox\.eval\.ts:24' 10
check "t selects the send line" '│ +const turn = await t\.send\("assertion/sandbox"\); +│'
# From the send line to its turn, and back.
keys Enter
wait_for 'Timeline · 3 rows' 10
check "Enter on the send line selects its turn" '│scope +session-1/turn-1'
keys C-o
wait_for 'Eval source · 2 files' 10
check "Ctrl-o is back on the send line" 'evals/assertion-sandbox\.eval\.ts:24'

keys c
wait_for 'Commands · 9 commands' 10
check "the Commands tab lists each command" '│9 attempt\.teardown +after turn 1 +✓ exit 0'
keys j j j
check "the inspector shows the selected command" '│\$ git -c advice\.addEmbeddedRepo=false'
keys Enter
wait_for 'Timing · 1\.1s' 10
check "Enter opens the command's interval" 'command 4 · eval\.run · during turn 1'
keys C-o
wait_for 'Commands · 9 commands' 10
check "Ctrl-o is back on the command" '│4 eval\.run'

keys q
wait_for 'E2E\$' 10
assert_sane_terminal
