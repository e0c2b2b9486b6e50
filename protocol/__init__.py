"""The bidding-box serial protocol: one pure codec and session state machine for both ends.

Runs unchanged on CPython (the tablet) and MicroPython (the box); no I/O here. SPEC.md is the
byte-level truth. Modules: crc16, cobs, calls (codes, names, parsing; call_names holds the name
table alone, for the box), layout (frame and body layouts, all the box needs), messages (their
plain-dict form, for the tablet and tests), framing (Deframer, frame builder), frame_tools
(whole-buffer helpers for tests and tools), session (session rules and BoxEndpoint),
tablet_endpoint (TabletEndpoint), clock (tick arithmetic). The box loads only what it uses: every
function loaded costs its heap.
"""
# 2 adds the box's NAK and CAPS (SPEC.md sections 3b, 3c); 3 the STATE's language byte (section 3)
PROTOCOL_VERSION = 3
VERSION_MIN = 1
VERSION_MAX = 3
