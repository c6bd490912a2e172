# Helpers for tmux end-to-end tests: a private tmux server, waiting for text
# on the screen instead of sleeping, and readable failures.
set -u
# Every wait below is multiplied by PATIENCE: a wait is a limit for a hang,
# not a speed test (speed is measured in BENCHMARKS.md), so it must hold on a
# loaded two-core machine running a debug build. Passing waits end as soon as
# the text shows, so patience costs nothing when all is well.
PATIENCE=${NICEEVAL_E2E_PATIENCE:-6}
SOCK="niceeval-e2e-$$-$RANDOM"
T() { tmux -L "$SOCK" "$@"; }
cleanup() { T kill-server 2>/dev/null || true; }
trap cleanup EXIT

# need_shared NAME DIR: end the script unless DIR (under ../shared) exists:
# skipped with a notice, or failed where NICEEVAL_REQUIRE_SHARED=1 requires it.
need_shared() {
  [ -d "$2" ] && return 0
  if [ "${NICEEVAL_REQUIRE_SHARED:-}" = 1 ]; then
    echo "e2e $1: $2 not found, and NICEEVAL_REQUIRE_SHARED=1 requires it"
    exit 1
  fi
  echo "e2e $1: skipped ($2 not found)"
  exit 0
}

# start_shell WIDTH HEIGHT: a clean bash with a known prompt.
start_shell() {
  T new-session -d -s e2e -x "$1" -y "$2" "env -i PATH=$PATH HOME=$HOME TERM=xterm-256color LANG=C.UTF-8 PS1='E2E\$ ' bash --norc --noprofile"
  T set-option -g remain-on-exit on
  wait_for 'E2E\$' 10
}

screen() { T capture-pane -p -t e2e; }

# wait_for REGEX [SECONDS]: poll the screen until REGEX shows up.
wait_for() {
  local pattern=$1 timeout=${2:-10} waited=0
  while ! screen | grep -qE -- "$pattern"; do
    sleep 0.1
    waited=$((waited + 1))
    if [ "$waited" -ge $((timeout * 10 * PATIENCE)) ]; then
      echo "FAIL: timed out waiting for /$pattern/; screen was:" >&2
      screen >&2
      exit 1
    fi
  done
}

# wait_gone REGEX [SECONDS]: poll until REGEX is no longer on the screen.
wait_gone() {
  local pattern=$1 timeout=${2:-10} waited=0
  while screen | grep -qE -- "$pattern"; do
    sleep 0.1
    waited=$((waited + 1))
    if [ "$waited" -ge $((timeout * 10 * PATIENCE)) ]; then
      echo "FAIL: /$pattern/ still on screen; screen was:" >&2
      screen >&2
      exit 1
    fi
  done
}

keys() { T send-keys -t e2e "$@"; }

check() { # check DESCRIPTION REGEX: on the screen within a few seconds (a frame
  # may be caught half drawn on a busy machine, so one look is not enough).
  local waited=0
  until screen | grep -qE -- "$2"; do
    sleep 0.1
    waited=$((waited + 1))
    if [ "$waited" -ge $((50 * PATIENCE)) ]; then
      echo "FAIL: $1 (/$2/ not on screen)" >&2
      screen >&2
      exit 1
    fi
  done
  echo "ok: $1"
}

# The terminal is sane: prompt back, canonical mode and echo on.
assert_sane_terminal() {
  # The marker is typed as "DO""NE" so the echoed command line cannot match it.
  keys 'clear; stty -a | tr " " "\n" | grep -xE -- "-?(icanon|echo)" | tr "\n" " "; echo "DO""NE"' Enter
  wait_for 'DONE$' 10
  check "terminal in canonical mode" '(^| )icanon '
  check "terminal echo on" '(^| )echo '
  check "shell prompt is back" 'E2E\$'
}
