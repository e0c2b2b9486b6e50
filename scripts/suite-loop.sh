#!/usr/bin/env bash
# The suite N times in a row, to show it passes on a busy machine (docs/testing.md, "No test
# depends on how fast the machine is"):
#
#   scripts/suite-loop.sh [--beside] N
#
# Runs `make test` N times, one after another, and prints one line a run: PASS or FAIL, its wall
# time, and the load average when it started and when it ended. Every run's output is kept in
# build/suite-loop/run-K.log (the failures' tracebacks are there). It carries on after a failure,
# so a night's run says how often, and returns 1 when any run failed.
#
# --beside: another full suite runs alongside all the while, in a clean clone of this checkout's
# HEAD (uncommitted changes are not in it) under a temporary folder, using this checkout's .venv
# and hardware/emu/node_modules; it is started again each time it ends, stopped when the last run
# here ends, and the clone is removed. Its runs are listed as well (build/suite-loop/beside-K.log).
#
# PYTEST_ARGS="tests/link -k bus" narrows the runs here (default: tests, the whole suite);
# BESIDE_ARGS the runs beside (default: tests). `make setup` must have been run once: the runs
# use the installed .venv as it is (make -o .venv/.installed), they never install.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

usage() { echo "usage: scripts/suite-loop.sh [--beside] N   (PYTEST_ARGS, BESIDE_ARGS narrow the runs)" >&2; exit 2; }
beside=0
case "${1:-}" in
  --beside) beside=1; shift ;;
esac
[ $# -eq 1 ] && [[ "$1" =~ ^[1-9][0-9]*$ ]] || usage
N=$1
[ -e .venv/.installed ] || { echo "suite-loop: no installed .venv here: run make setup first" >&2; exit 2; }

OUT=$ROOT/build/suite-loop
mkdir -p "$OUT"
load() { cut -d' ' -f1-3 /proc/loadavg; }
# what a run's log says at its end: pytest's count, else (make stopped before pytest) its last line
said() { grep -E "[0-9]+ (passed|failed|errors?)" "$1" | tail -n 1 | grep . || tail -n 1 "$1"; }

# one_run DIR ARGS LOG: make test in DIR, its output to LOG; the exit code of make
one_run() {
  local dir=$1 args=$2 log=$3
  (cd "$dir" && make --no-print-directory -o .venv/.installed test PYTEST_ARGS="$args") >"$log" 2>&1
}

beside_pid=""
clone=""
stop_beside() {
  if [ -n "$beside_pid" ]; then
    # Ctrl-C to the runs beside (pytest tears its fixtures down: servers, Xvfb, emulators), then
    # TERM and KILL to whatever is left of their process group
    touch "$OUT/.beside-stop"
    kill -INT -- "-$beside_pid" 2>/dev/null
    for _ in $(seq 120); do kill -0 "$beside_pid" 2>/dev/null || break; sleep 1; done
    kill -TERM -- "-$beside_pid" 2>/dev/null && sleep 5
    kill -KILL -- "-$beside_pid" 2>/dev/null
    wait "$beside_pid" 2>/dev/null
    beside_pid=""
  fi
  if [ -n "$clone" ]; then
    rm -rf "$clone"
    clone=""
  fi
}
trap 'stop_beside; exit 130' INT TERM
trap stop_beside EXIT

if [ $beside -eq 1 ]; then
  clone=$(mktemp -d "${TMPDIR:-/tmp}/suite-beside.XXXXXX")
  git clone --quiet --no-hardlinks "$ROOT" "$clone/repo" || { echo "suite-loop: could not clone" >&2; exit 1; }
  ln -s "$(readlink -f .venv)" "$clone/repo/.venv"
  ln -s "$(readlink -f hardware/emu/node_modules)" "$clone/repo/hardware/emu/node_modules"
  rm -f "$OUT"/beside-*.log "$OUT/.beside-stop"
  : >"$OUT/beside.txt"
  # Started with job control on: a process group of its own (to stop it whole), and Ctrl-C not
  # ignored in it (a script's background jobs otherwise ignore SIGINT, and so would pytest).
  export -f one_run load said
  export OUT
  set -m
  # shellcheck disable=SC2016
  bash -c '
    trap : INT  # on Ctrl-C: say the run was stopped (the stop file is there), then end
    k=0
    while [ ! -e "$OUT/.beside-stop" ]; do
      k=$((k + 1)); s=$(date +%s); l0=$(load)
      if one_run "$1" "$2" "$OUT/beside-$k.log"; then r=PASS; else r=FAIL; fi
      [ -e "$OUT/.beside-stop" ] && r="stopped"
      echo "beside $k: $r $(( $(date +%s) - s )) s (load $l0 -> $(load)) $(said "$OUT/beside-$k.log")" >>"$OUT/beside.txt"
    done' beside "$clone/repo" "${BESIDE_ARGS:-tests}" &
  beside_pid=$!
  set +m
  echo "suite-loop: a full suite runs beside, in $clone/repo (build/suite-loop/beside-K.log)"
fi

failed=0
for k in $(seq 1 "$N"); do
  s=$(date +%s); l0=$(load)
  if one_run "$ROOT" "${PYTEST_ARGS:-tests}" "$OUT/run-$k.log"; then r=PASS; else r=FAIL; failed=$((failed + 1)); fi
  echo "run $k/$N: $r $(( $(date +%s) - s )) s (load $l0 -> $(load)) $(said "$OUT/run-$k.log")"
  grep -E "^(FAILED|ERROR) " "$OUT/run-$k.log" | sed 's/^/    /'  # which tests, for the night's tally
done

if [ $beside -eq 1 ]; then
  stop_beside
  cat "$OUT/beside.txt"
fi
echo "suite-loop: $((N - failed))/$N runs passed (logs in build/suite-loop/)"
[ $failed -eq 0 ]
