#!/usr/bin/env bash
# Installs the Debian packages the demo and the test suite use, when missing.
#   xvfb xauth   - a virtual X server: the Kivy app runs for real in the UI tests and headless demo
#   libmtdev1 libgl1 libegl1 - what the Kivy wheel loads at start
#   fonts-dejavu-core - a font with the suit symbols (♣♦♥♠)
#   chromium     - headless browser for the station's live director page tests
#   nginx        - a cache in front of the station's live feed (docs/live-nginx.conf, its test)
#   postgresql   - a real server for the station's PostgreSQL tests (started locally by the tests)
#   tmux         - the demo puts each virtual box in its own pane
#   kicad python3-numpy python3-pil - KiCad 6's pcbnew Python module (hardware/pcb/build.py lays out,
#                  routes and checks the PCBs with it), with the numpy and Pillow it runs beside
#   unixodbc unixodbc-dev libsqliteodbc - ODBC for the .bws bridge tests: the driver manager (and
#                  its headers, should pip build pyodbc from source) and the SQLite ODBC driver
# Without root or apt, it lists what is missing and returns 0: the tests that need a missing
# piece skip with a message naming it, and the run fails (tests/plugins/no_skips.py).
set -u
want=(xvfb xauth libmtdev1 libgl1 libegl1 fonts-dejavu-core chromium nginx postgresql tmux unixodbc unixodbc-dev libsqliteodbc kicad python3-numpy python3-pil)
missing=()
for p in "${want[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-system: not installed (need root and apt-get): ${missing[*]}; tests that need them will skip"
  exit 0
fi
echo "setup-system: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
  # One missing package must not stop the others.
  for p in "${missing[@]}"; do
    apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1 || echo "setup-system: could not install $p"
  done
fi
exit 0
