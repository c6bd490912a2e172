#!/usr/bin/env bash
# Benchmarks for niceeval (see BENCHMARKS.md). Prints a Markdown table.
#
#   scripts/bench.sh                      # 10MB 100MB 1GB, session + jsonl + summary
#   SIZES="10MB" FORMATS="jsonl" scripts/bench.sh
#   PROFILE=dev scripts/bench.sh          # unoptimised build (faster to compile)
#   EVENTS="1000 1000000"                 # event counts for frame / key / search
#   BENCH_DIR=/tmp/niceeval-bench         # generated inputs (reused when present)
#   JLESS=/path/to/jless                  # also time jless to first screen (tmux)
#
# Every number is measured in this run: the serde_json::Value baseline parses
# the same bytes in the same process as the load it is compared with; peak RSS
# comes from /usr/bin/time in a separate process per measurement; the first
# frame is timed by niceeval itself (NICEEVAL_TIMING=exit) in a tmux pane.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES-"10MB 100MB 1GB"}
FORMATS=${FORMATS-"session jsonl summary"}
EVENTS=${EVENTS-"1000 1000000"}
PROFILE=${PROFILE:-release}
BENCH_DIR=${BENCH_DIR:-/tmp/niceeval-bench}
JLESS=${JLESS:-$(command -v jless || true)}
mkdir -p "$BENCH_DIR"

echo "building ($PROFILE profile)…" >&2
build_start=$(date +%s)
cargo build --quiet --profile "$PROFILE" --bin niceeval --example bench --example generate >&2
build_secs=$(($(date +%s) - build_start))
dir=$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")
BIN=target/$dir/niceeval
BENCH=target/$dir/examples/bench
GEN=target/$dir/examples/generate

field() { # field NAME LINE
  tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"
}

peak_rss_kb() { # peak RSS of one command, KB
  /usr/bin/time -f '%M' -o "$BENCH_DIR/time.out" "$@" >/dev/null 2>&1 || true
  tail -1 "$BENCH_DIR/time.out"
}

first_frame_ms() { # niceeval's own first-frame time (NICEEVAL_TIMING=exit) in a 200x60 tmux pane
  # (tmux answers the terminal queries crossterm makes; `script` does not).
  local s=bench-ff-$$ out="$BENCH_DIR/first-frame.txt"
  rm -f "$out"
  tmux new-session -d -s "$s" -x 200 -y 60 "NICEEVAL_TIMING=exit $BIN view '$1' 2>'$out'"
  while tmux has-session -t "$s" 2>/dev/null; do sleep 0.1; done # waits for exit; the time is niceeval's own
  grep -ao 'first frame after [0-9.]* ms' "$out" | grep -o '[0-9.]*' | head -1 || true
}

whole_shown_ms() { # NICEEVAL_TIMING=loaded: the first frame showing the whole file (after a preview, if any)
  local s=bench-wh-$$ out="$BENCH_DIR/whole-shown.txt"
  rm -f "$out"
  tmux new-session -d -s "$s" -x 200 -y 60 "NICEEVAL_TIMING=loaded $BIN view '$1' 2>'$out'"
  while tmux has-session -t "$s" 2>/dev/null; do sleep 0.1; done
  { grep -ao 'whole file loaded and shown after [0-9.]* ms' "$out" || grep -ao 'first frame after [0-9.]* ms' "$out"; } |
    grep -o '[0-9.]*' | head -1 || true
}

# Time to first screen measured from outside, the same way for both viewers:
# start the command in a tmux pane and poll the pane until PATTERN shows.
# (jless has no timer of its own; the poll adds up to 20 ms and tmux start-up.)
screen_ms() { # screen_ms PATTERN COMMAND...
  local pattern=$1 s=bench-screen-$$ t0 t1
  shift
  tmux kill-session -t "$s" 2>/dev/null || true
  t0=$(date +%s%N)
  tmux new-session -d -s "$s" -x 200 -y 60 "$*"
  until tmux capture-pane -p -t "$s" 2>/dev/null | grep -q -- "$pattern"; do
    sleep 0.02
    if (($(date +%s%N) - t0 > 300000000000)); then break; fi
  done
  t1=$(date +%s%N)
  tmux kill-session -t "$s" 2>/dev/null || true
  echo $(((t1 - t0) / 1000000))
}

nproc_=$(nproc)
mem=$(awk '/MemTotal/ {printf "%.1f GB", $2/1048576}' /proc/meminfo)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "## Run $(date -u +%Y-%m-%dT%H:%MZ) — $nproc_ cores, $mem RAM, $cpu; profile $PROFILE (build ${build_secs}s)"
echo
echo "### Load + derive (same bytes, same process, Value parse first)"
echo
echo "| input | bytes | events | Value parse s | load s | load+derive s | MB/s | ratio (≤1.0) | RSS value ×file | RSS load ×file (≤1.5) | first frame ms | whole file shown ms | first screen ms (outside) | jless first screen ms (outside) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for size in $SIZES; do
  for fmt in $FORMATS; do
    f="$BENCH_DIR/$fmt-$size.json"
    [ "$fmt" = jsonl ] && f="$BENCH_DIR/$fmt-$size.jsonl"
    [ -s "$f" ] || "$GEN" --format "$fmt" --size "$size" --seed 1 --out "$f" 2>/dev/null
    line=$("$BENCH" load "$f")
    bytes=$(field bytes "$line")
    rss_v=$(peak_rss_kb "$BENCH" mem value "$f")
    rss_l=$(peak_rss_kb "$BENCH" mem load "$f")
    ff=$(first_frame_ms "$f")
    wh=$(whole_shown_ms "$f")
    outside=$(screen_ms 'Timeline' "$BIN" view "$f")
    jl="–"
    if [ -n "$JLESS" ] && [ "$fmt" = session ]; then jl=$(screen_ms '"' "$JLESS" "$f"); fi
    printf '| %s %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %.2f | %s | %s | %s | %s |\n' "$fmt" "$size" "$bytes" \
      "$(field events "$line")" "$(field value_s "$line")" "$(field load_s "$line")" "$(field load_derive_s "$line")" \
      "$(field mbps "$line")" "$(field ratio "$line")" \
      "$(echo "$rss_v * 1024 / $bytes" | bc -l)" "$(echo "$rss_l * 1024 / $bytes" | bc -l)" "${ff:-?}" "${wh:-?}" "$outside" "$jl"
  done
done

echo
echo "### Frames, keys and search at 200×60 (ratatui TestBackend, small events)"
echo
echo "| events | build s | frame median ms (<4) | slowest key ms (<16) | slowest key | search Enter→first hit ms | longest search step ms | all matches ms |"
echo "|---:|---:|---:|---:|---|---:|---:|---:|"
declare -A FRAME
for n in $EVENTS; do
  fr=$("$BENCH" frame "$n")
  ks=$("$BENCH" keys "$n")
  se=$("$BENCH" search "$n")
  FRAME[$n]=$(field median_ms "$fr")
  echo "| $n | $(field build_s "$fr") | ${FRAME[$n]} | $(field worst_ms "$ks") | $(field worst_key "$ks") | $(field first_hit_ms "$se") | $(field longest_step_ms "$se") | $(field all_matches_ms "$se") |"
done
set -- $EVENTS
if [ $# -ge 2 ]; then
  first=$1
  last=${!#}
  echo
  echo "Frame time ratio ${last} / ${first} events, from the separate runs above: $(echo "${FRAME[$last]} / ${FRAME[$first]}" | bc -l | xargs printf '%.2f') (target ≤ 1.2)"
  fs=$("$BENCH" frames "$first" "$last")
  echo
  echo "Frame time ratio ${last} / ${first} events, frames drawn alternately in one process (400 each): $(field ratio "$fs") ($(field small_median_ms "$fs") ms vs $(field large_median_ms "$fs") ms median; target ≤ 1.2)"
fi
