"""The bidding-box serial protocol: one pure codec and session state machine for both ends.

Runs unchanged on CPython (the tablet) and MicroPython (the box); no I/O here. SPEC.md is the
byte-level truth. Modules: crc16, cobs, calls, messages (frame and body layouts), framing
(Deframer, frame builder), session (BoxEndpoint, TabletEndpoint), clock (tick arithmetic).
"""
PROTOCOL_VERSION = 1
VERSION_MIN = 1
VERSION_MAX = 1
