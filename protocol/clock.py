# Millisecond tick arithmetic. MicroPython's ticks wrap (period 2**30 on small ports), so every
# comparison goes through ticks_diff; CPython callers pass plain monotonic milliseconds.
try:
    from time import ticks_add, ticks_diff, ticks_ms  # type: ignore[attr-defined, unused-ignore]  # MicroPython
except ImportError:  # CPython
    import time as _time

    # (mypy checks this module twice: as CPython sees it, and against MicroPython's stubs, whose
    # time module has the originals; hence the ignores that only one of the two needs)
    def ticks_ms():  # type: ignore[misc, unused-ignore]
        return int(_time.monotonic() * 1000)

    def ticks_diff(a, b):  # type: ignore[misc, unused-ignore]
        return a - b

    def ticks_add(a, d):  # type: ignore[misc, unused-ignore]
        return a + d
