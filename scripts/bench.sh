#!/usr/bin/env bash
# Benchmarks for niceeval (see BENCHMARKS.md). Prints a Markdown table.
#
#   scripts/bench.sh                      # 10MB 100MB 1GB, session + jsonl + summary
#   SIZES="10MB" FORMATS="jsonl" scripts/bench.sh
#   PROFILE=dev scripts/bench.sh          # unoptimised build (faster to compile)
#   EVENTS="1000 1000000"                 # event counts for frame / key / search
#   DENSE="1000000"                       # event-dense inputs (session + JSONL of N small events):
#                                         # check, check --format json, show, show --json, derive,
#                                         # viewer vs Python's json.load
#   SHAPES="plain no-command failing"     # their tool calls: with `command` projections, without (an
#                                         # Adapter not migrated: a warning a start), every call failed
#   HEAVY="200MB"                         # payload-heavy JSONL: check vs cat
#   OTHER="heavy folder claude-code"      # the other shapes vs Python, every surface as DENSE: the HEAVY
#                                         # JSONL, a folder of 2,000 Claude Code logs (FOLDER="200MB" in
#                                         # all), one Claude Code log (NATIVE="100MB")
#   STRING="20"                           # one huge string field (MB): key press vs a 20 KB string
#   RUNS=3                                # runs of each command in the DENSE and HEAVY sections
#   PYTHON=python3                        # the json.load baseline ("" leaves it out)
#   (an empty list skips its section: SIZES= EVENTS= scripts/bench.sh runs only DENSE and HEAVY)
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
DENSE=${DENSE-"1000000"}
SHAPES=${SHAPES-"plain no-command failing"}
HEAVY=${HEAVY-"200MB"}
OTHER=${OTHER-"heavy folder claude-code"}
FOLDER=${FOLDER-"200MB"}
NATIVE=${NATIVE-"100MB"}
STRING=${STRING-"20"}
RUNS=${RUNS:-3}
PYTHON=${PYTHON-$(command -v python3 || true)}
PROFILE=${PROFILE:-release}
BENCH_DIR=${BENCH_DIR:-/tmp/niceeval-bench}
JLESS=${JLESS:-$(command -v jless || true)}
mkdir -p "$BENCH_DIR"

echo "building ($PROFILE profile)…" >&2
build_start=$(date +%s)
cargo build --quiet --profile "$PROFILE" --bin niceeval --example bench --example generate --example generate_folder >&2
build_secs=$(($(date +%s) - build_start))
dir=$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")
BIN=target/$dir/niceeval
BENCH=target/$dir/examples/bench
GEN=target/$dir/examples/generate
GEN_FOLDER=target/$dir/examples/generate_folder

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
if [ -n "$SIZES" ]; then
echo
echo "### Load + derive (same bytes, same process, Value parse first)"
echo
echo "| input | bytes | events | Value parse s | load s | load+derive s | MB/s | ratio (≤1.0) | RSS value ×file | RSS load ×file (≤1.5) | first frame ms | whole file shown ms | first screen ms (outside) | jless first screen ms (outside) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
fi
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

if [ -n "$EVENTS" ]; then
echo
echo "### Frames, keys and search at 200×60 (ratatui TestBackend, small events)"
echo
echo "| events | build s | frame median ms (<4) | slowest key ms (<16) | slowest key | search Enter→first hit ms | longest search step ms | all matches ms |"
echo "|---:|---:|---:|---:|---|---:|---:|---:|"
fi
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

# ---------------------------------------------------------------------------
# Event-dense inputs (issue 22) and the payload-heavy JSONL against cat.
# Every command is its own process, timed from outside (wall clock around it)
# with its peak RSS from /usr/bin/time -f %M; its stdout goes to /dev/null.
# Each run times every command once, in turn, so a ratio is taken within one
# run (command / baseline of the same run) and the medians over RUNS runs are
# printed. The files are read once before the runs (page cache warm).

timed() { # timed CMD...: "<wall seconds> <peak RSS KB>" of one run, stdout and stderr dropped
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f '%M' -o "$BENCH_DIR/time.out" "$@" >/dev/null 2>&1 || true
  t1=$(date +%s%N)
  echo "$(echo "($t1 - $t0) / 1000000000" | bc -l) $(tail -1 "$BENCH_DIR/time.out")"
}

median() { # median of the arguments
  printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'
}

view_timed() { # view_timed MODE FILE: "<ms niceeval reports> <peak RSS KB>" of one viewer run in a 200x60 tmux pane
  # MODE exit: first frame; loaded: first frame showing the whole file. The
  # peak RSS is the viewer process's (under /usr/bin/time inside the pane).
  local mode=$1 f=$2 s=bench-vt-$$ out="$BENCH_DIR/view-timed.txt" ms
  rm -f "$out" "$BENCH_DIR/view-time.out"
  tmux new-session -d -s "$s" -x 200 -y 60 \
    "NICEEVAL_TIMING=$mode /usr/bin/time -f '%M' -o '$BENCH_DIR/view-time.out' $BIN view '$f' 2>'$out'"
  while tmux has-session -t "$s" 2>/dev/null; do sleep 0.1; done
  if [ "$mode" = loaded ]; then
    ms=$({ grep -ao 'whole file loaded and shown after [0-9.]* ms' "$out" || grep -ao 'first frame after [0-9.]* ms' "$out"; } |
      grep -o '[0-9.]*' | head -1 || true)
  else
    ms=$(grep -ao 'first frame after [0-9.]* ms' "$out" | grep -o '[0-9.]*' | head -1 || true)
  fi
  echo "${ms:-nan} $(tail -1 "$BENCH_DIR/view-time.out" 2>/dev/null || echo nan)"
}

mb() { echo "$1 / 1024" | bc -l | xargs printf '%.0f'; }
x() { echo "$1 / $2" | bc -l | xargs printf '%.2f'; }

PY_DOC='import json,sys; json.load(open(sys.argv[1]))'
PY_LINES='import json,sys; [json.loads(l) for l in open(sys.argv[1], "rb")]'

PY_DIR='import json,sys,glob; [json.loads(l) for f in glob.glob(sys.argv[1] + "/*.jsonl") for l in open(f, "rb")]'
SURFACES=("check" "check --format json" "show" "show --json" "derive")

versus_python() { # versus_python LABEL PATH PYTHON_CODE: one Markdown row a surface, RUNS runs each, in turn
  local label=$1 f=$2 py=$3 bytes r t k pt pr ms name
  bytes=$(du -sb "$f" | cut -f1)
  [ -d "$f" ] || cat "$f" >/dev/null
  local names=(python "${SURFACES[@]}" "view: first frame" "view: whole file shown")
  declare -A T=() R=() Q=()
  for ((r = 1; r <= RUNS; r++)); do
    if [ -n "$PYTHON" ]; then read -r pt pr < <(timed "$PYTHON" -c "$py" "$f"); else pt=nan pr=nan; fi
    T[python]+=" $pt" R[python]+=" $pr"
    for cmd in "${SURFACES[@]}"; do
      # shellcheck disable=SC2086
      read -r t k < <(timed "$BIN" $cmd "$f")
      T[$cmd]+=" $t" R[$cmd]+=" $k"
      [ "$pt" = nan ] || Q[$cmd]+=" $(echo "$t / $pt" | bc -l)"
    done
    for mode in exit loaded; do
      name="view: first frame"
      [ "$mode" = loaded ] && name="view: whole file shown"
      read -r ms k < <(view_timed "$mode" "$f")
      t=$(echo "$ms / 1000" | bc -l 2>/dev/null || echo nan)
      T[$name]+=" $t" R[$name]+=" $k"
      [ "$pt" = nan ] || [ "$ms" = nan ] || Q[$name]+=" $(echo "$t / $pt" | bc -l)"
    done
  done
  for name in "${names[@]}"; do
    # shellcheck disable=SC2086
    t=$(median ${T[$name]}) k=$(median ${R[$name]})
    q="1.00"
    # shellcheck disable=SC2086
    [ "$name" = python ] || q=$(median ${Q[$name]:-nan} | xargs printf '%.2f')
    [ "$PYTHON" ] || [ "$name" != python ] || continue
    printf '| %s | %s | %s | %.3f | %s | %s | %s |\n' "$label" "$bytes" "$name" "$t" "$q" \
      "$(mb "$k")" "$(echo "$k * 1024 / $bytes" | bc -l | xargs printf '%.2f')"
  done
}

if [ -n "$DENSE$OTHER" ]; then
  echo
  echo "### Every shape: niceeval vs Python's json.load, $RUNS runs, medians (load average $(cut -d' ' -f1-3 /proc/loadavg) at the start)"
  echo
  echo "Baseline: \`python3 -c '$PY_DOC' FILE\` (for JSONL, \`python3 -c '$PY_LINES' FILE\`: json.load does not read JSONL; for a folder, \`python3 -c '$PY_DIR' DIR\`). ×python is the median of the per-run ratios; the viewer rows are niceeval's own first-frame / whole-file-shown times (NICEEVAL_TIMING=exit / loaded) in a 200×60 tmux pane, their RSS the viewer's peak."
  echo
  echo "| input | bytes | command | median s | ×python (median) | peak RSS MB | RSS ×file |"
  echo "|---|---:|---|---:|---:|---:|---:|"
fi
for n in $DENSE; do
  for shape in $SHAPES; do
    for fmt in session-dense jsonl-dense; do
      f="$BENCH_DIR/$fmt-$shape-$n.json"
      py=$PY_DOC
      if [ "$fmt" = jsonl-dense ]; then f="$BENCH_DIR/$fmt-$shape-$n.jsonl" py=$PY_LINES; fi
      [ -s "$f" ] || "$GEN" --format "$fmt" --events "$n" --shape "$shape" --seed 1 --out "$f" 2>/dev/null
      versus_python "$fmt $shape $n" "$f" "$py"
    done
  done
done
for other in $OTHER; do
  case $other in
    heavy) # payload-heavy JSONL: long tool outputs
      f="$BENCH_DIR/jsonl-$HEAVY.jsonl"
      [ -s "$f" ] || "$GEN" --format jsonl --size "$HEAVY" --seed 1 --out "$f" 2>/dev/null
      versus_python "jsonl $HEAVY (payload-heavy)" "$f" "$PY_LINES" ;;
    folder) # many small files: a folder of 2,000 Claude Code session logs
      f="$BENCH_DIR/claude-code-folder-$FOLDER"
      [ -d "$f" ] || "$GEN_FOLDER" --format claude-code-folder --sessions 2000 --size "$FOLDER" --seed 1 --out "$f" 2>/dev/null
      versus_python "2,000 Claude Code logs, $FOLDER" "$f" "$PY_DIR" ;;
    claude-code) # one native Claude Code log
      d="$BENCH_DIR/claude-code-log-$NATIVE"
      [ -d "$d" ] || "$GEN_FOLDER" --format claude-code-folder --sessions 1 --size "$NATIVE" --seed 1 --out "$d" 2>/dev/null
      versus_python "Claude Code log, $NATIVE" "$(ls "$d"/*.jsonl | head -1)" "$PY_LINES" ;;
  esac
done

if [ -n "$HEAVY" ]; then
  echo
  echo "### Payload-heavy JSONL: check vs cat, $RUNS runs, medians (load average $(cut -d' ' -f1-3 /proc/loadavg) at the start)"
  echo
  echo "| input | bytes | cat s | check s | check / cat (median) | check MB/s | check peak RSS MB | RSS ×file |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  for size in $HEAVY; do
    f="$BENCH_DIR/jsonl-$size.jsonl"
    [ -s "$f" ] || "$GEN" --format jsonl --size "$size" --seed 1 --out "$f" 2>/dev/null
    bytes=$(stat -c %s "$f")
    cat "$f" >/dev/null
    ct="" kt="" kr="" q=""
    for ((r = 1; r <= RUNS; r++)); do
      read -r c _ < <(timed cat "$f")
      read -r t k < <(timed "$BIN" check "$f")
      ct+=" $c" kt+=" $t" kr+=" $k" q+=" $(echo "$t / $c" | bc -l)"
    done
    # shellcheck disable=SC2086
    c=$(median $ct) t=$(median $kt) k=$(median $kr)
    # shellcheck disable=SC2086
    printf '| jsonl %s | %s | %.3f | %.3f | %.1f | %.0f | %s | %s |\n' "$size" "$bytes" "$c" "$t" "$(median $q)" \
      "$(echo "$bytes / 1000000 / $t" | bc -l)" "$(mb "$k")" "$(echo "$k * 1024 / $bytes" | bc -l | xargs printf '%.2f')"
  done
fi

if [ -n "$STRING" ]; then
  echo
  echo "### One huge string field: a key press (update + draw) with it selected vs a 20 KB string, alternately in one process"
  echo
  echo "| string MB | 20 KB key ms (median) | huge key ms (median) | ratio |"
  echo "|---:|---:|---:|---:|"
  for mb in $STRING; do
    line=$("$BENCH" string "$mb")
    printf '| %s | %s | %s | %s |\n' "$mb" "$(field small_median_ms "$line")" "$(field large_median_ms "$line")" \
      "$(field ratio "$line")"
  done
fi
