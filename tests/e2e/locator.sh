#!/usr/bin/env bash
# `view RECORD @LOCATOR` in a real terminal opens that attempt alone (as
# `show RECORD @LOCATOR` selects it), and q quits to a sane shell; an unknown
# locator is refused with its name. Usage: locator.sh PATH/TO/niceeval
set -u
BIN=$1
cd "$(dirname "$0")/../.."
RECORD=tests/fixtures/record-counting
. tests/e2e/lib.sh
start_shell 140 30

keys "$BIN view $RECORD @14DBBZWSRFDFG" Enter
wait_for '! errored │ no reason recorded' 20
check "the attempt the locator names, alone" '▾ ! flaky · main #2'
check "NiceEval's counts of what is open" '1 attempt · pass rate 0% of 1 slot · 1 slot not recorded'
check "NiceEval's tokens, the partial sum beside them" '— tokens · partial 60'
keys q
wait_gone 'no reason recorded' 10
assert_sane_terminal

keys "$BIN view $RECORD @1NOSUCHATTEMPT; echo rc=\$?" Enter
wait_for 'rc=2' 10
check "an unknown locator is named" 'no attempt with the locator @1NOSUCHATTEMPT'
echo "e2e locator: passed"
