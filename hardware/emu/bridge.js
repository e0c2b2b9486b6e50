// The USB bridge's receive side (emu.js CONFIG "bridge"): an FTDI chip (the hub's FT231X, an
// FTDI cable per box) holds the bytes it receives from the wire until its latency timer's next
// tick or until a full USB packet (62 data bytes) has gathered, then hands them to the host.
// The timer runs whether or not bytes wait (the chip sends a status-only packet when none do),
// and a full packet leaves at once and starts it again. Times in ns of the table's chip clock.
'use strict';

class Bridge {
  // onFlush(port, nowNs, bytes): the bytes reach the tablet at nowNs
  constructor(port, latencyMs, packet, onFlush) {
    this.port = port;
    this.periodNs = latencyMs * 1e6;
    this.packet = packet;
    this.onFlush = onFlush;
    this.buf = [];
    this.nextNs = this.periodNs;
  }

  // bytes that arrived from the wire by `now` (each at its stop bit)
  push(bytes, now) {
    for (const v of bytes) {
      this.buf.push(v);
      if (this.buf.length >= this.packet) {
        this.flush(now);
        this.nextNs = now + this.periodNs;
      }
    }
  }

  // the table's clock is at `now`: hand over what waits if the timer has expired
  tick(now) {
    if (now < this.nextNs) return;
    this.flush(now);
    while (this.nextNs <= now) this.nextNs += this.periodNs;
  }

  flush(now) {
    if (!this.buf.length) return;
    const bytes = this.buf;
    this.buf = [];
    this.onFlush(this.port, now, bytes);
  }
}

module.exports = { Bridge };
