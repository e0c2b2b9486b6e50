# The byte loops of the codec in native code (MicroPython's viper emitter), for the box: the CRC
# of a frame the box sends, the COBS encoding, and the receiver's run of data bytes (COBS decode
# and CRC together, framing.Deframer). Each is the same loop as its bytecode original, byte for
# byte (tests/firmware/mp/fw_native_checks.py runs both on the MicroPython unix port).
# MicroPython only: crc16.py, cobs.py and framing.py import this where they can and otherwise keep
# their own loops (CPython on the tablet: no `micropython` module; a port without native code,
# whose compiler refuses the decorators). The CRC tables come in as arguments (crc16.py's
# constants, in flash).
import sys

import micropython  # type: ignore[import-not-found, unused-ignore]  # noqa: F401 - the decorators in the source name it

import protocol


def _compile():
    """The loops, compiled at import by the box's own MicroPython, which emits native code for
    the CPU it runs on (the RP2040's Cortex-M0+, x86-64 for the unix port): in an .mpy native
    code would tie the file to one CPU, and mpy-cross refuses it without an architecture."""
    from protocol import native_src
    exec(native_src.SRC, globals())
    # the text is needed only now: without its module it leaves the heap
    del sys.modules["protocol.native_src"]
    delattr(protocol, "native_src")


_compile()
