# The changed cells of the box's picture into the frame buffer, and the fixed texts into its
# lines, in native code (MicroPython's viper emitter): render.Frame.draw's inner loops.
# On the chip the same loop in bytecode, with a framebuf blit per cell, took 5-10 ms of a call's path (64 cells compared, 20-30 of them copied
# after a call: measured on the emulated RP2040, `make bench`); here it is tens of microseconds.
# Only MicroPython compiles this module: render.py falls back to its bytecode loop where it
# cannot be imported (CPython: no `micropython` module; a port without native code, whose
# compiler refuses the decorators).
import sys

import micropython  # noqa: F401 - the decorators in the source name it


def _compile():
    """The loops, compiled at import by the box's own MicroPython, which emits native code for
    the CPU it runs on (the RP2040's Cortex-M0+, x86-64 for the unix port): in an .mpy native
    code would tie the file to one CPU, and mpy-cross refuses it without an architecture."""
    import blit_src
    exec(blit_src.SRC, globals())
    # the text is needed only now: without its module it leaves the heap
    del sys.modules["blit_src"]


_compile()
