# Two commands for a fresh machine: `make run` (the demo table) and `make test`.
# Everything else they need is installed by `make setup`, from pinned versions in this repository.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

BOXES  ?= unix

.PHONY: setup system uf2 run run-headless test test-fast screenshots bench lint mpy-check flash clean pcb enclosure

# the UF2 and boot ROM for the emulated boxes; without network and without copies the chip tests say so
setup: system $(STAMP)
	-@bash hardware/emu/fetch_uf2.sh

$(STAMP): requirements.txt requirements-dev.txt hardware/emu/package-lock.json
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@# npm ci wipes node_modules first: only when what is installed is not what the lock pins
	@# (a node_modules shared by several checkouts must not be emptied by each one's newer lock file)
	$(PY) -c "$$NODE_MATCHES" || (cd hardware/emu && npm ci --no-audit --no-fund --loglevel=error)
	touch $(STAMP)

define NODE_MATCHES
import json, sys
def versions(path):
    try:
        pkgs = json.load(open(path))["packages"]
    except (OSError, ValueError, KeyError):
        return None
    return {k: v.get("version") for k, v in pkgs.items() if k}
sys.exit(versions("hardware/emu/package-lock.json") != versions("hardware/emu/node_modules/.package-lock.json"))
endef
export NODE_MATCHES

# Debian packages the tests and the demo use (Xvfb for the Kivy app, Chromium for the director
# page, PostgreSQL for the station, tmux for the virtual boxes). Installed only when missing,
# and only where we may (root with apt); otherwise the affected tests skip, say why, and fail the run.
system:
	@bash scripts/setup-system.sh

# BOXES=rp2040: the four boxes run the flashed firmware on emulated RP2040s (hardware/emu)
# instead of the MicroPython unix port (the default: faster, and the boxes get terminals).
run: setup
	$(PY) -m demo --boxes $(BOXES)

run-headless: setup
	$(PY) -m demo --headless --boxes $(BOXES)

# The stock MicroPython UF2 (RPI_PICO v1.27.0) and the RP2040 boot ROM (B1) the emulated boxes
# need: found in $$BOX_RP2040_ASSETS, build/rp2040 or ~/.cache/bidding-box/rp2040, else downloaded (the UF2
# from micropython.org, the boot ROM from rp2040js at a pinned commit); kept only if its content
# checks out (hardware/emu/check_assets.py).
uf2:
	@bash hardware/emu/fetch_uf2.sh

# The whole suite, after the box code compiles and the linters pass (CI runs exactly this). It
# leaves the checkout as it was (tests/plugins/clean_tree.py): screenshots go to build/screenshots.
# PYTEST_ARGS narrows the run (scripts/suite-loop.sh passes it on).
PYTEST_ARGS ?= tests
test: setup mpy-check lint
	$(PY) -m pytest -q --durations=30 $(PYTEST_ARGS)

# The edit-test loop (under a minute): the laws engine, scoring, the protocol's codec and the other
# pure unit tests; nothing that starts MicroPython, an emulated chip, Kivy, PostgreSQL, Chromium,
# the station as a process, the simulated link or a whole table (markers in pyproject.toml, given
# by tests/plugins/parts.py). The property tests run a tenth of their examples (the "fast"
# hypothesis profile, tests/hypothesis_profiles.py); `make test` runs them all.
FAST := not slow and not micropython and not emulator and not ui and not database and not browser and not server \
        and not link
test-fast: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider -m "$(FAST)" --hypothesis-profile=fast tests

# The pictures in docs/screenshots: the tablet's screens in three languages and the director page
# as the tests take them (into build/screenshots), and the box's display on the emulated chip.
screenshots: setup
	rm -rf build/screenshots
	$(PY) -m pytest -q -p no:cacheprovider -m "ui or browser" tests/ui tests/station/test_director_page.py tests/station/test_director_language.py
	cp build/screenshots/*.png docs/screenshots/
	$(PY) -m hardware.emu screens docs/screenshots

mpy-check: $(STAMP)
	@bash scripts/mpy-check.sh

bench: setup
	mkdir -p build
	$(PY) -m bench | tee build/bench-latest.txt

# ruff, then mypy over the whole tree as CPython runs it (pyproject.toml), then the box's code
# (firmware/, protocol/) against the MicroPython stubs of the board we flash (firmware/mypy.ini).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(PY) scripts/mpy_stubs.py build/mpy-stubs
	$(VENV)/bin/mypy --config-file firmware/mypy.ini

flash: $(STAMP)
	@test -n "$(PORT)" || { echo "usage: make flash PORT=/dev/ttyACM0 [SEAT=N] [BUS=1] [DISPLAY_BUS=i2c] [ROMFS=1]"; exit 2; }
	ROMFS="$(ROMFS)" BUS="$(BUS)" DISPLAY_BUS="$(DISPLAY_BUS)" bash scripts/flash.sh "$(PORT)" "$(SEAT)"

# The box and hub PCBs from hardware/schematic.py: KiCad board, DRC report, Gerbers, drill,
# assembly bill and pick-and-place files under build/pcb/, the views in docs/pcb-*.png (needs
# Debian's kicad: scripts/setup-system.sh). A routing plan is kept in build/pcb-cache/ and used
# again while nothing it depends on changes (hardware/pcb/README.md).
pcb: $(STAMP) system
	$(PY) -m hardware.pcb --out build/pcb --docs docs

# The box's enclosure (hardware/enclosure/): the printed lid and base as STEP and STL, the whole box
# as one STEP assembly and the fit report (fit.txt) under build/enclosure/; the views and the
# key-legend sheets (sv, da, en; SVG and PDF) in docs/. Fails when a fit check fails.
enclosure: $(STAMP)
	$(PY) -m hardware.enclosure --out build/enclosure --docs docs

clean:
	rm -rf build .pytest_cache .mypy_cache .ruff_cache .hypothesis
