#!/usr/bin/env bash
# Every surface over every sample and fixture, one output file per run
# (stdout, then stderr, then the exit code), so two binaries can be compared
# byte for byte:
#
#   scripts/sample-run.sh BINARY OUT_DIR
#   diff -r OUT_A OUT_B && echo identical
#
# Inputs: ../shared/samples (every file, and each Record folder as one input),
# tests/fixtures and assets/demo. Runs under NO_COLOR with a fixed width.
set -uo pipefail
BIN=$(realpath "$1")
OUT=$2
cd "$(dirname "$0")/.."
mkdir -p "$OUT"
inputs() {
  for root in ../shared/samples tests/fixtures assets/demo; do
    [ -d "$root" ] || continue
    find "$root" -name record.json -printf '%h\n'
    find "$root" -type f \( -name '*.json' -o -name '*.jsonl' -o -name '*.ndjson' \) -not -path '*/record/*'
  done | sort -u
}
RUNS=(
  "check" "check --format json" "show" "show --json" "show --tools" "show --failures" "show --boxed"
  "show --grep tool" "show --full" "show --hitl" "show --all" "show --timing" "derive"
)
n=0
while IFS= read -r input; do
  for run in "${RUNS[@]}"; do
    name=$(printf '%s__%s' "$input" "$run" | tr '/ ' '__')
    width=()
    [[ $run == show* ]] && width=(--width 120)
    # shellcheck disable=SC2086
    NO_COLOR=1 timeout 60 "$BIN" $run "${width[@]}" "$input" >"$OUT/$name" 2>"$OUT/$name.err" </dev/null
    echo "exit $?" >>"$OUT/$name.err"
    n=$((n + 1))
  done
done < <(inputs)
echo "sample run: $n runs of $BIN into $OUT"
