#!/usr/bin/env bash
# An errored attempt in a real terminal: the header says why it errored,
# it opens on where it began (the execution error, Enter goes to it), `e`
# goes to the execution error (Diagnostics) and says it, and the Timing
# tab marks eval.run, the phase the error is recorded in; q quits to a sane
# shell.  Usage: errored.sh PATH/TO/niceeval
set -u
BIN=$1
cd "$(dirname "$0")/../.."
RECORD=../shared/samples/niceeval/realrun-report/record
. tests/e2e/lib.sh
need_shared errored "$RECORD"
start_shell 140 35

keys "$BIN view $RECORD" Enter
wait_for '22 attempts' 20
# The attempts list: filter it to the errored attempt and open it.
keys Tab Tab /
keys -l deliberate-error
keys Enter
wait_for 'Attempts · 1 of 22' 10
keys Enter
wait_for '^! errored' 10
check "the header says why" '^! errored │ error in eval.run \(unexpected-error\): deliberate error for report fixture'
check "it opens on where it began" '│⚑ where it began  eval\.run  error in eval\.run'
keys Enter
wait_for 'Diagnostics · ' 10
check "Enter on where it began lands on the execution error" 'Recorded diagnostic'
keys C-o
wait_for '⚑ where it began' 10
# The attempt itself, with the navigator focused: its inspector says why.
keys BTab
check "the inspector says why" '│why +error in eval.run \(unexpected-error\)'

keys 1
keys e
wait_for 'Diagnostics · ' 10
check "e lands on the execution error" 'Recorded diagnostic'
check "e says what it is" '^errored: error in eval.run \(unexpected-error\): deliberate error for report fixture \(Diagnostics\)'

keys 8
wait_for 'Timing · ' 10
check "the Timing tab counts the errored interval" '3 nodes · ! 1 errored'
check "eval.run is marked" '│! eval.run +32ms'

keys q
wait_for 'E2E\$' 10
assert_sane_terminal
