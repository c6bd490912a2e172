#!/usr/bin/env bash
# Regenerate screenshots/*.png from the real binary in a real terminal:
# xterm under Xvfb, driven with xdotool, captured with ImageMagick's `import`.
# Debian packages: xvfb xterm xdotool imagemagick fonts-dejavu-core fonts-noto-core fonts-symbola
# Usage: scripts/screenshots.sh [NAME...]  (no names: every screenshot)
set -euo pipefail
cd "$(dirname "$0")/.."
PKGS="xvfb xterm xdotool imagemagick fonts-dejavu-core fonts-noto-core fonts-symbola"
need=""
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"; done
if [ -n "$need" ]; then
  echo "installing:$need"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
cargo build --release --quiet
BIN="$PWD/target/release/niceeval"
DISPLAY_NUM=":93"
Xvfb "$DISPLAY_NUM" -screen 0 1600x1000x24 >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null || true' EXIT
export DISPLAY="$DISPLAY_NUM"
sleep 1

ONLY=" $* "
# shot NAME COLS ROWS "COMMAND" KEYS...  (keys are xdotool key names or text:<string>)
shot() {
  local name=$1 cols=$2 rows=$3 cmd=$4
  shift 4
  if [ "$ONLY" != "  " ] && [[ "$ONLY" != *" $name "* ]]; then return 0; fi
  xterm -geometry "${cols}x${rows}" -fa 'DejaVu Sans Mono' -fs 10 -bg '#16181d' -fg '#d5d8de' \
    -xrm 'XTerm*colorBDMode: false' -T "niceeval-$name" -e bash -c "$cmd; sleep 30" &
  local pid=$! wid=""
  for _ in $(seq 1 100); do
    wid=$(xdotool search --name "niceeval-$name" 2>/dev/null | head -1 || true)
    [ -n "$wid" ] && break
    sleep 0.1
  done
  [ -n "$wid" ] || { echo "no window for $name" >&2; kill $pid; return 1; }
  sleep 1.5
  # XTEST input goes to the focused window (xterm ignores synthetic SendEvent input).
  xdotool windowfocus --sync "$wid" 2>/dev/null || xdotool windowfocus "$wid"
  for k in "$@"; do
    case "$k" in
      text:*) xdotool type --delay 40 "${k#text:}" ;;
      *) xdotool key "$k" ;;
    esac
    sleep 0.3
  done
  sleep 0.8
  import -window "$wid" "screenshots/$name.png"
  kill $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  echo "screenshots/$name.png"
}

shot diagnostics 160 44 "$BIN view tests/fixtures/ui/failed-orphans.json" 6
shot timeline 160 44 "$BIN view assets/demo/session.json" e
shot hitl 160 44 "$BIN view assets/demo/session.json" 3 j j
shot usage 160 44 "$BIN view assets/demo/session.json" 4
shot assertions 160 44 "$BIN view assets/demo/record" 5
shot check 120 36 "$BIN check tests/fixtures/ui/failed-orphans.json; s=\$?; echo; echo \"(exit status \$s)\""
shot search 160 44 "$BIN view assets/demo/session.json" slash text:rm
shot timing 160 44 "$BIN view assets/demo/record" 8
REPORT=../shared/samples/niceeval/realrun-report/record
shot compare-matrix 160 44 "$BIN view --compare $REPORT"
shot compare-split 160 44 "$BIN view --compare $REPORT" Return
shot compare-split-tools 160 44 "$BIN view --compare $REPORT" Return 2 Return
