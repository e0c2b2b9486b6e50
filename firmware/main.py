# Entry point of the box. On a board (rp2) MicroPython runs /main.py at boot: the seat comes from
# /config.json (written by scripts/flash.sh) or the seat jumpers. On the unix port:
#   micropython firmware/main.py --seat N --port /dev/pts/7 [--screen-file F] [--store F] [--bus]
#                                 [--no-draw] [--keep-on-eof]
# (firmware/README.md has the details.)
import sys

# The seat letters spelt out again on purpose: this runs on MicroPython, which must not import
# shared_rules (everything else takes them from shared_rules.types, defined once there).
SEATS = "NESW"


def _arg(argv, name, default=None):
    for i in range(len(argv) - 1):
        if argv[i] == name:
            return argv[i + 1]
    return default


def main_unix(argv):
    here = argv[0].rsplit("/", 1)[0] if "/" in argv[0] else "."
    sys.path.append(here + "/..")  # the repository root: the `protocol` package
    import app
    import hal_unix
    import store

    seat = SEATS.find(_arg(argv, "--seat", "").upper() or "?")
    port = _arg(argv, "--port")
    if seat < 0 or not port:
        print("usage: micropython firmware/main.py --seat N|E|S|W --port /dev/pts/N "
              "[--screen-file PATH] [--store PATH] [--bus] [--no-draw] [--keep-on-eof]")
        sys.exit(2)
    draw = False if "--no-draw" in argv else None
    try:
        hal = hal_unix.Hal(port, _arg(argv, "--screen-file"), draw, "--keep-on-eof" not in argv)
    except OSError as e:
        print("cannot open", port, e)
        sys.exit(3)
    path = _arg(argv, "--store")
    box = app.BoxApp(hal, seat, "--bus" in argv, store.Store(path) if path else None)
    try:
        box.run()
    except KeyboardInterrupt:
        pass
    except hal_unix.PortGone:
        print("serial port", port, "went away: box stops")
        sys.exit(3)


def main_rp2():
    import json

    import app
    import hal_rp2
    import store

    seat = -1
    bus = False
    heap_log = False
    trace = False
    display = "spi"  # how the panel is wired (hardware/display.md): "spi" or "i2c"
    try:
        with open("/config.json") as f:
            cfg = json.load(f)
        seat = SEATS.find(cfg.get("seat", "?"))
        bus = bool(cfg.get("bus", False))
        heap_log = bool(cfg.get("heap_log", False))
        trace = bool(cfg.get("trace", False))
        display = cfg.get("display", display)
    except (OSError, ValueError):
        pass
    hal = hal_rp2.Hal("/pinmap.json", display)
    if seat < 0:
        seat = hal_rp2.seat_from_jumpers(hal.jumper_gpios)
    if seat < 0:
        seat = 0
    box = app.BoxApp(hal, seat, bus, store.Store("/outbox.bin", hal_rp2.raw_block))
    # the bench's: each new high-water mark of the heap (after a STATE, before the collection)
    box.heap_log = 1 if heap_log else 0
    if trace:
        box.trace = [0] * 10  # the bench's: where a call's time goes (app.py), on the console
    import gc

    from machine import WDT

    gc.collect()
    # No collection by threshold: one (about 4.5 ms of the chip's time with this heap) would fall
    # at random inside a call's path or, on a bus, between a grant and its reply, which then came
    # too late to send (measured: 7-17 grants in 100 let pass, `make bench`). The app collects
    # when nothing waits instead: point to point after each STATE's redraw, on a bus right after
    # its reply to a grant (app.py). MicroPython still collects by itself if an allocation finds
    # no room.
    gc.threshold(-1)
    # one line a harness or a person at the USB console reads: which chip, how much heap, and
    # whether the byte loops were compiled to native code here (else they run as bytecode)
    import render

    from protocol import framing
    native = render._native_cells is not None and framing._native_run is not None
    print("box boot seat %s bus %d on %s heap %d native %d" % (
        SEATS[seat], bus, sys.implementation._machine, gc.mem_alloc(), native))
    # The watchdog: a box that hangs (a stuck bus, a loop that never returns) restarts within
    # 2 s; hal.wait feeds it on every turn of the loop. Calls in flight are in /outbox.bin
    # (store.py's journal).
    hal.wdt = WDT(timeout=2000)
    faults = 0
    while True:
        try:
            box.run_forever()
        except Exception as e:  # noqa: BLE001 - the box must go on; a traceback goes to USB
            faults += 1
            print("box fault", faults)
            sys.print_exception(e)
            hal.serial.release()
            if faults > 20:
                import machine

                machine.reset()  # the same fault over and over: start clean, calls kept


if sys.platform == "linux" or sys.platform == "darwin":
    main_unix(sys.argv)
else:
    main_rp2()
