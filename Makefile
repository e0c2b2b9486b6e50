# Two commands for a fresh machine: `make run` (the demo table) and `make test`.
# Everything else they need is installed by `make setup`, from pinned versions in this repository.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

BOXES  ?= unix

.PHONY: setup system uf2 run run-headless test test-fast bench lint mpy-check flash clean pcb enclosure

# the UF2 and boot ROM for the emulated boxes; without network and without copies the chip tests say so
setup: system $(STAMP)
	-@bash hardware/emu/fetch_uf2.sh

$(STAMP): requirements.txt requirements-dev.txt hardware/emu/package-lock.json
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	cd hardware/emu && npm ci --no-audit --no-fund --loglevel=error
	touch $(STAMP)

# Debian packages the tests and the demo use (Xvfb for the Kivy app, Chromium for the director
# page, PostgreSQL for the station, tmux for the virtual boxes). Installed only when missing,
# and only where we may (root with apt); otherwise the affected tests skip, say why, and fail the run.
system:
	@bash scripts/setup-system.sh

# BOXES=rp2040: the four boxes run the flashed firmware on emulated RP2040s (hardware/emu)
# instead of the MicroPython unix port (the default: faster, and the boxes get terminals).
run: setup
	$(PY) -m tablet_app.demo --boxes $(BOXES)

run-headless: setup
	$(PY) -m tablet_app.demo --headless --boxes $(BOXES)

# The stock MicroPython UF2 (RPI_PICO v1.27.0) and the RP2040 boot ROM (B1) the emulated boxes
# need: found in $$BOX_RP2040_ASSETS, build/rp2040 or ../shared/rp2040, else downloaded (the UF2
# from micropython.org, the boot ROM from rp2040js at a pinned commit); kept only if the sha256 is pinned.
uf2:
	@bash hardware/emu/fetch_uf2.sh

test: setup mpy-check
	$(PY) -m pytest -q tests

# The engine and codec tests only: seconds, for the edit-test loop.
test-fast: $(STAMP)
	$(PY) -m pytest -q -m "not slow and not ui" tests

mpy-check: $(STAMP)
	@bash scripts/mpy-check.sh

bench: setup
	mkdir -p build
	$(PY) -m bench | tee build/bench-latest.txt

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

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
