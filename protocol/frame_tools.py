# Whole-buffer conveniences over cobs and framing, for tests, benches and tools. The box never
# imports this module (scripts/box_image.py leaves it off the board): each function a box loads
# costs its heap.
from protocol import cobs
from protocol.framing import Deframer


def max_encoded(n):
    """COBS-encoded length of n bytes (no delimiter)."""
    return n + n // 254 + 1


def wire_from_payload(p):
    """Wire bytes (COBS + delimiter) of a payload."""
    out = bytearray(max_encoded(len(p)) + 1)
    o = cobs.encode(p, len(p), out, 0)
    out[o] = 0
    return bytes(out[0:o + 1])


def payloads(data):
    """All valid payloads in a byte string: a list of bytes."""
    d = Deframer()
    out = []
    i = 0
    n = len(data)
    while i < n:
        i = d.feed(data, i, n)
        if d.length:
            out.append(bytes(d.payload[0:d.length]))
    return out
