// Boxes on emulated RP2040s (rp2040js), driven by hardware/emu/harness.py over stdin/stdout.
//
//   node emu.js CONFIG.json
//
// CONFIG: {"uf2": path, "bootrom": path, "bus": bool, "baud": 115200, "realtime": true,
//          "spi": {"id": 0, "cs": 26, "dc": 27, "res": 28} (the display's SPI block and pins),
//          "bridge": {"latency_ms": 1, "packet": 62} or absent (below),
//          "lockstep": bool (below),
//          "boxes": [{"flash": path-of-a-2MiB-flash-file, "jumpers": [0|1, 0|1]}, ...]}
// "bridge": the USB-serial bridge between the wire and the tablet (the hub's FT231X, or an FTDI
// cable per box point to point): it holds the bytes it receives from the wire until its latency
// timer expires (a free-running period of latency_ms, 16 ms unless the tablet sets it) or a USB
// packet's worth (62 data bytes) has gathered, then hands them to the tablet at once (Y lines).
// Without it every byte reaches the tablet at its stop bit (U and B lines).
// "lockstep" (hardware/emu/lockstep.py): the chips start standing, and stand again whenever
// bytes reach the tablet (Y), when they reach the time the last A line gave (the tablet's own
// next action: H ... due) and when the harness asks (B: H ... pin); they go on only on an A
// line. The tablet's bytes come as W lines stamped with its own clock (at_us), and enter the
// line at that chip time.
// Each box is one RP2040 booted as a Pico boots: the boot ROM, then the stock MicroPython UF2's
// image in flash, and the box's LittleFS filesystem at flash offset 0xA0000 (in the flash file,
// which is written back on power-off so a power cycle keeps it). All boxes run in lockstep on
// one simulated clock; with "realtime" the simulation never runs ahead of the wall clock (the
// tablet on the other side keeps wall-clock time), and it reports how far it lags.
//
// Lines to this program (box = index into boxes):
//   W box HEX [at_us]   bytes from the tablet to that box's UART RX (point-to-point), from chip
//                  time at_us (lockstep: the tablet's clock; else from now)
//   W bus HEX [at_us]   bytes from the tablet onto the RS-485 line (every box receives them)
//   A [until_us]   lockstep: the tablet has taken its turn, the chips go on (until until_us at
//                  most, when they stand again: H until_us due)
//   B k            lockstep: stand now (or stay standing) for the harness: H sim_us pin k
//   E box HEX      bytes typed on the box's USB console (its REPL)
//   P box r c hold gap   press key (row r, col c) for hold ms of chip time, then gap ms released
//   X box          power off (flash kept, written back to its file)
//   O box          power on (boot again from the flash)
//   I box 0|1      the display's cable out (1: no power, no acknowledge on I2C, SPI bytes lost)
//                  or back in (0: the panel starts as at power-on, off, its memory cleared)
//   H box          hang the firmware: the CPU spins with interrupts off (the watchdog's case)
//   S box          screenshot: replies F box HEX(1024 bytes GDDRAM) and the LED states
//   T              time: replies T sim_us wall_us
//   Q              quit (flash written back)
// Lines from it:
//   R box sim_us          box booted (power on or reset)
//   U box sim_us HEX      bytes the box put on its wire, each delivered at its stop bit's time
//   B sim_us HEX box      bytes on the RS-485 line (driven by a box whose DE was high)
//   Y port sim_us HEX     with "bridge": bytes the bridge hands the tablet (port: box or "bus");
//                         with "lockstep" the chip clock then stops until A
//   M sim_us HEX [port]   bytes the tablet put on the line (bus), or on box port's wire
//                         (point to point: with "lockstep" only), from that time on
//   C sim_us a b HEX      collision: box b drove the line (byte HEX, lost) while a did (a = -1:
//                         while the tablet did)
//   H sim_us why [k]      lockstep: the chips stand ("start", "due": the tablet's time, "pin" k,
//                         "bridge": after the Y lines of the bytes handed over at this time)
//   J sim_us port late_us lockstep: a tablet write stamped late_us before the chips' time (it
//                         enters the line now: the tablet acted while the chips ran)
//   Z sim_us box          bus: a byte the box sent with its driver off (DE low): lost
//   L box sim_us TEXT     a line the box printed (its USB console)
//   F box HEX leds on changed_us now_us   display memory, the LEDs, the panel on (1) or off, the
//                         chip time its picture last changed, and the chip time now
//   D box sim_us          watchdog reset
//   N sim_us              the table's chip clock now (every few ms of wall time)
//   T sim_us wall_us busy_cycles_per_box bytes_programmed_per_box bytes_erased_per_box
//   KD box sim_us r c     a key went down (its press starts)
//   V box sim_us HEX      with "frames": a write to display memory ended (its whole memory)
//   RS box sim_us         "snapshots": the box joins from a snapshot taken at sim_us of its boot
//                         (the lines it printed up to then follow)
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { RP2040, USBCDC, GPIOPinState, Simulator } = require('rp2040js');
const { Bridge } = require('./bridge.js');
const snapshot = require('./snapshot.js');
// the package exports no SimulationClock; the Simulator's own clock is one
const SimulationClock = new Simulator().clock.constructor;

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const BAUD = cfg.baud || 115200;
const BYTE_NS = Math.round((10 * 1e9) / BAUD); // 8N1: start + 8 data + stop
const FLASH_SIZE = 2 * 1024 * 1024;
const CYCLE_NS = 8; // 125 MHz

const bootrom = fs.readFileSync(cfg.bootrom);
const uf2 = fs.readFileSync(cfg.uf2);
let gNs = 0; // the table's time: every box's chip time is gNs - its power-on time
const wallStart = process.hrtime.bigint();
const wallUs = () => Number((process.hrtime.bigint() - wallStart) / 1000n);
// a table whose boxes all start from snapshots starts at their time, not at 0: "realtime" counts
// the wall clock from there (their boot took no wall time)
let wallSkewUs = 0;
const simUs = () => Math.floor(gNs / 1000);

function out(line) {
  process.stdout.write(line + '\n');
}

// lockstep: the chips wait for the tablet (an A line), from the start
let held = !!cfg.lockstep;
let horizon = Infinity; // lockstep: the chips stand when they reach it (the tablet's next action)

function stand() {
  held = true;
  horizon = Infinity;
}

// a bridge handing the tablet bytes: a Y line, and in lockstep the chips stand (H ... bridge
// once every bridge has handed over what it had at this time)
let handing = false;
function handed(port, now, bytes) {
  out(`Y ${port} ${Math.floor(now / 1000)} ${Buffer.from(bytes).toString('hex')}`);
  if (cfg.lockstep) { stand(); handing = true; }
}

function loadUf2(flash) {
  for (let off = 0; off + 512 <= uf2.length; off += 512) {
    const b = uf2.subarray(off, off + 512);
    if (b.readUInt32LE(0) !== 0x0a324655 || b.readUInt32LE(4) !== 0x9e5d5157) continue;
    const addr = b.readUInt32LE(12);
    const size = b.readUInt32LE(16);
    flash.set(b.subarray(32, 32 + size), addr - 0x10000000);
  }
}

// The SSD1306/SSD1309 as the box's I2C bus or its 4-wire SPI sees it: I2C writes start with a
// control byte (0x00 commands, 0x40 display data, 0x80 one command); on SPI the D/C pin says
// which a byte is. Commands, and GDDRAM writes in horizontal addressing mode (the mode
// firmware/ssd1306.py sets).
class Oled {
  constructor(addr) {
    this.addr = addr;
    this.ram = new Uint8Array(1024);
    this.fault = false; // the cable is out: the panel has no power, sees nothing, answers nothing
    // the chip time (ns) of the last write that changed what the panel shows: a reader waits
    // until it is some while ago, so it never takes a picture half pushed (page by page)
    this.changedNs = 0;
    this.clock = () => 0;
    this.reset();
  }
  reset() {
    this.col0 = 0; this.col1 = 127; this.page0 = 0; this.page1 = 7;
    this.col = 0; this.page = 0; this.on = false;
    this.args = []; this.need = 0; this.cmd = 0;
    this.mode = 0; // 0 control byte expected, 1 commands, 2 data
    this.writes = 0;
    this.drew = false;
  }
  plug(out) {
    // a panel that was without power comes back as after power-on: off, registers at reset,
    // its memory not what it showed (cleared here)
    if (this.fault && !out) { this.reset(); this.ram.fill(0); this.changedNs = this.clock(); }
    this.fault = out;
  }
  connect(addr) {
    if (this.fault || addr !== this.addr) return false;
    this.mode = 0;
    return true;
  }
  stop() {
    // the end of a write that changed display memory: the moment a player can read it (the
    // firmware pushes only the pages that changed, so this need not be the last page)
    if (this.drew && this.onFrame) this.onFrame();
    this.drew = false;
  }
  write(v) {
    // an I2C byte after the address
    if (this.mode === 0) {
      this.mode = v & 0x40 ? 2 : 1;
      return;
    }
    if (this.mode === 2) this.data(v);
    else this.command1(v);
  }
  data(v) {
    const i = this.page * 128 + this.col;
    if (this.ram[i] !== v) { this.ram[i] = v; this.changedNs = this.clock(); }
    this.writes++;
    this.drew = true;
    if (++this.col > this.col1) {
      this.col = this.col0;
      if (++this.page > this.page1) this.page = this.page0;
    }
  }
  command1(v) {
    if (this.need) {
      this.args.push(v);
      if (--this.need === 0) this.command(this.cmd, this.args);
      return;
    }
    const n = { 0x21: 2, 0x22: 2, 0x20: 1, 0x81: 1, 0xa8: 1, 0xd3: 1, 0xda: 1, 0xd5: 1,
      0xd9: 1, 0xdb: 1, 0x8d: 1 }[v] || 0;
    if (n) {
      this.cmd = v; this.args = []; this.need = n;
    } else {
      this.command(v, []);
    }
  }
  command(c, a) {
    if (c === 0x21) { this.col0 = a[0] & 127; this.col1 = a[1] & 127; this.col = this.col0; }
    else if (c === 0x22) { this.page0 = a[0] & 7; this.page1 = a[1] & 7; this.page = this.page0; }
    else if (c === 0xae || c === 0xaf) {
      if (this.on !== (c === 0xaf)) this.changedNs = this.clock();
      this.on = c === 0xaf;
    }
  }
}

// The Pico's QSPI flash chip as the boot ROM's flash_range_erase/program drive it (rp2040js
// 1.4.1 models only XIP reads: a write through the ROM did nothing, so MicroPython's LittleFS
// could not write a byte). The ROM forces the chip select through IO_QSPI's SS override and
// shifts commands through the SSI's data register: write enable, sector/block erase, page
// program, status polls. The chip is busy (status bit WIP) for its typical program and erase
// times (Winbond W25Q16JV, the Pico's part: page program 0.4 ms, 4 KB sector erase 45 ms, 32/64
// KB block erase 120/150 ms), so a write costs the firmware the time it costs on a Pico; the
// rp2 port runs these with interrupts off, so a long erase also holds off the UART's handler.
const FLASH_PROGRAM_NS = 400e3;
const FLASH_ERASE_NS = { 0x20: 45e6, 0x52: 120e6, 0xd8: 150e6 };

class SpiFlash {
  constructor(mem, now) {
    this.mem = mem;
    this.now = now; // the chip's clock, ns
    this.selected = false;
    this.buf = [];
    this.busyUntil = 0;
    this.written = 0; // bytes programmed since power-on
    this.erased = 0;
  }
  select(on) {
    // a page program starts when the chip select rises after its data
    if (!on && this.selected && this.buf[0] === 0x02 && this.buf.length > 4) {
      this.busyUntil = this.now() + FLASH_PROGRAM_NS;
    }
    this.selected = on;
    this.buf = [];
    if (this.onSelect) this.onSelect();
  }
  byte(v) {
    // returns the byte shifted in while v is shifted out
    if (!this.selected) return 0;
    const b = this.buf;
    b.push(v);
    const cmd = b[0];
    if (cmd === 0x05 && b.length > 1) return this.now() < this.busyUntil ? 1 : 0; // WIP
    if (b.length === 4 && (cmd === 0x20 || cmd === 0x52 || cmd === 0xd8)) {
      const size = cmd === 0x20 ? 4096 : cmd === 0x52 ? 32768 : 65536;
      const addr = ((b[1] << 16) | (b[2] << 8) | b[3]) & ~(size - 1);
      this.mem.fill(0xff, addr, addr + size);
      this.erased += size;
      this.busyUntil = this.now() + FLASH_ERASE_NS[cmd];
    } else if (cmd === 0x02 && b.length > 4) {
      const addr = (b[1] << 16) | (b[2] << 8) | b[3];
      const page = addr & ~0xff;
      const a = page + ((addr + b.length - 5) & 0xff);
      this.mem[a] &= v;
      this.written++;
    }
    return 0;
  }
}

function attachFlash(mcu, model) {
  const ssi = mcu.peripherals[0x18000];
  const write = ssi.writeUint32.bind(ssi);
  const read = ssi.readUint32.bind(ssi);
  // every byte shifted out shifts one in: the ROM counts them through RXFLR (kept on the model,
  // as all of a box's state is kept on its objects: hardware/emu/snapshot.js)
  model.rx = [];
  model.onSelect = () => { model.rx = []; };
  ssi.writeUint32 = (off, v) => {
    if (off === 0x08) model.rx = []; // SSIENR: disabling the SSI empties its FIFOs
    if (off === 0x60) model.rx.push(model.byte(v & 0xff));
    write(off, v);
  };
  ssi.readUint32 = (off) => {
    if (off === 0x20) return 0; // TXFLR: sent at once
    if (off === 0x24) return model.rx.length; // RXFLR
    if (off === 0x60) return model.rx.length ? model.rx.shift() : 0; // status while busy; ids and reads 0
    return read(off);
  };
  mcu.peripherals[0x40018] = {
    regs: new Map(),
    // STATUS registers read as before (all ones: what the ROM polls for is there)
    readUint32(off) { return (off & 7) === 0 ? 0xffffffff : this.regs.get(off) || 0; },
    writeUint32(off, v) {
      this.regs.set(off, v >>> 0);
      if (off === 0x0c) {
        const over = (v >>> 8) & 3; // OUTOVER of QSPI_SS: 2 drive low, 3 drive high
        if (over === 2) model.select(true);
        else model.select(false);
      }
    },
    writeUint32Atomic(off, v, type) {
      const cur = this.regs.get(off) || 0;
      const nv = type === 1 ? cur ^ v : type === 2 ? cur | v : type === 3 ? cur & ~v : v;
      this.writeUint32(off, nv);
    },
  };
}

class Box {
  constructor(index, bcfg) {
    this.index = index;
    this.cfg = bcfg;
    this.flash = new Uint8Array(FLASH_SIZE);
    this.flash.set(fs.readFileSync(bcfg.flash).subarray(0, FLASH_SIZE));
    this.oled = new Oled(0x3c);
    this.pressed = new Set(); // "r,c"
    this.keyq = [];
    this.keyUntil = 0;
    this.line = '';
    this.mcu = null;
    this.txFree = 0; // sim ns when the box's transmitter is free
    this.rxFree = 0;
    this.de = false;
    this.leds = {};
    this.hangs = false;
    this.busyCycles = 0; // cycles the core ran (not waiting): how loaded the chip is
    // snapshots (below): every field set here, never deleted, so that the box keeps one shape
    // (a deleted property turns it into a dictionary, and its run loop became 60% slower)
    this.snapPath = null;
    this.rec = null; // the lines printed while a boot may become a snapshot
    this.wakeAt = -1; // restored: the table time it joins at (-1: it runs)
    this.replay = null;
    this.touched = false; // a command reached it before its snapshot could be taken
    this.muted = false;
    this.reboot = false;
  }

  powerOn() {
    // a chip of its own clock, started at power-on (as the RP2040's timer is)
    this.clock = new SimulationClock();
    this.base = gNs;
    const mcu = new RP2040(this.clock);
    mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
    mcu.loadBootrom(new Uint32Array(bootrom.buffer, bootrom.byteOffset, bootrom.length / 4));
    mcu.flash.set(this.flash);
    this.flash = mcu.flash.subarray(0, FLASH_SIZE); // the firmware's writes land here
    this.spi = new SpiFlash(mcu.flash, () => this.clock.nanos);
    attachFlash(mcu, this.spi);
    const cdc = new USBCDC(mcu.usbCtrl);
    cdc.onDeviceConnected = () => this.emit('L', `${simUs()} [usb connected]`);
    this.cdc = cdc;
    // A USB host sends an OUT packet only when it has data for the device. rp2040js 1.4.1's
    // USBCDC answers every OUT buffer the device arms with a zero-length packet 10 us later, so
    // TinyUSB re-arms it at once: about 24,000 USB interrupts a second, which kept the core
    // busy almost all the time (measured: 98.7% of an idle box's cycles). Here an armed buffer
    // waits until the console has bytes for it.
    this.armed = -1;
    const usb = mcu.usbCtrl;
    const sendOut = () => {
      const buf = new Uint8Array(Math.min(this.armed, cdc.txFIFO.itemCount));
      for (let i = 0; i < buf.length; i++) buf[i] = cdc.txFIFO.pull();
      this.armed = -1;
      usb.endpointReadDone(cdc.outEndpoint, buf);
    };
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) return;
      this.armed = size;
      if (cdc.txFIFO.itemCount) sendOut();
    };
    this.consoleIn = (bytes) => {
      for (const v of bytes) cdc.txFIFO.push(v);
      if (this.armed >= 0 && cdc.txFIFO.itemCount) sendOut();
    };
    cdc.onSerialData = (buf) => {
      for (const ch of buf) {
        if (ch === 10) {
          this.emit('L', `${simUs()} ${this.line.replace(/\r$/, '')}`);
          this.line = '';
        } else if (this.line.length < 400) {
          this.line += String.fromCharCode(ch);
        }
      }
    };
    const uart = mcu.uart[0];
    // rp2040js 1.4.1 keeps the TX interrupt raised for good ("TODO proper FIFO for TX"), so
    // MicroPython's UART handler, which clears it and returns when it has nothing to send, runs
    // forever. A PL011 raises it when its FIFO drains past the threshold: here, when a byte
    // has been written (the emulated FIFO empties at once; the wire time is paced below).
    const TXINTR = 1 << 5;
    uart.checkInterrupts = function () {
      this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
    };
    uart.onByte = (v) => {
      this.txByte(v);
      uart.interruptStatus |= TXINTR;
      uart.checkInterrupts();
    };
    this.rxq = [];
    const i2c = mcu.i2c[0];
    const oled = this.oled;
    oled.reset();
    oled.clock = () => this.now();
    // with "frames", and while a boot may become a snapshot (below: a run with "frames" that
    // restores it prints them)
    oled.onFrame = () => {
      if (cfg.frames || this.rec) this.emit('V', `${Math.floor(this.now() / 1000)} ${Buffer.from(oled.ram).toString('hex')}`);
    };
    // The I2C bus takes its time on the chip's clock: a start or stop a bit time, the address
    // and each data byte nine (8 bits and the acknowledge), at the SCL period the firmware
    // programmed (clk_sys cycles high + low, as pico-sdk's i2c_set_baudrate sets them), so a
    // page pushed at 400 kHz costs what it costs on the chip (pico-sdk waits on the FIFO).
    const bitNs = () => {
      const fast = ((i2c.control >> 1) & 3) >= 2;
      const cyc = fast ? i2c.fsClockHighPeriod + i2c.fsClockLowPeriod : i2c.ssClockHighPeriod + i2c.ssClockLowPeriod;
      return Math.max(cyc, 1) * CYCLE_NS;
    };
    // the transfer under way as data (op, byte), not a closure: a snapshot holds it
    this.i2cOp = null;
    const i2cDone = () => {
      const op = this.i2cOp;
      this.i2cOp = null;
      if (!op) return;
      const [what, v] = op;
      if (what === 'start') i2c.completeStart();
      else if (what === 'connect') i2c.completeConnect(oled.connect(v));
      else if (what === 'write') {
        if (oled.fault) { i2c.completeWrite(false); return; }
        oled.write(v);
        i2c.completeWrite(true);
      } else if (what === 'read') i2c.completeRead(0);
      else if (what === 'stop') { oled.stop(); i2c.completeStop(); }
    };
    this.i2cAlarm = this.clock.createAlarm(i2cDone);
    const after = (bits, what, v) => { this.i2cOp = [what, v]; this.i2cAlarm.schedule(bits * bitNs()); };
    i2c.onStart = () => after(1, 'start');
    i2c.onConnect = (addr) => after(9, 'connect', addr);
    i2c.onWriteByte = (v) => after(9, 'write', v);
    i2c.onReadByte = () => after(9, 'read');
    i2c.onStop = () => after(1, 'stop');
    // The same panel on 4-wire SPI (the reference box: hardware/pinmap.json, display.spi). A byte
    // takes 8 SCK periods at the clock the firmware programmed (clk_peri / (CPSDVSR x (1 +
    // SCR)), the PL022's divider: 10 MHz asked gives 8.93 MHz), one after the other as the
    // transmit FIFO (or the DMA behind it) hands them over; the panel takes a byte at its last
    // clock edge, only while CS is low, as a command while D/C is low and as display data
    // while it is high. CS going high ends a write (a frame, as an I2C stop does); RES low
    // resets the controller. Nothing answers: SPI has no acknowledge, a missing panel is not
    // seen by the firmware.
    // the pins come from the pin map only (hardware/emu/harness.py copies them into CONFIG)
    const sp = cfg.spi;
    if (!sp) throw new Error('CONFIG has no "spi": the display\'s SPI block and pins (hardware/pinmap.json)');
    const spi = mcu.spi[sp.id];
    const driven = (n, level) => {
      const p = mcu.gpio[n];
      return p.outputEnable && !!p.outputValue === level;
    };
    this.spiByte = 0;
    this.spiAlarm = this.clock.createAlarm(() => {
      if (driven(sp.cs, false) && !oled.fault) {
        if (driven(sp.dc, true)) oled.data(this.spiByte);
        else oled.command1(this.spiByte);
      }
      spi.completeTransmit(0);
    });
    spi.onTransmit = (v) => {
      this.spiByte = v;
      const hz = spi.clockFrequency || 1e6;
      this.spiAlarm.schedule(Math.max(1, Math.round((spi.dataBits * 1e9) / hz)));
    };
    mcu.gpio[sp.cs].addListener((s) => { if (s === GPIOPinState.High) oled.stop(); });
    if (sp.res >= 0) {
      mcu.gpio[sp.res].addListener((s) => { if (s === GPIOPinState.Low && !oled.fault) oled.reset(); });
    }
    // keypad: rows 6-10 driven, cols 11-15 read (hardware/pinmap.json); a pressed key joins
    // its row to its column through a diode, so a column reads low only while a row it is
    // pressed on is driven low
    const km = cfg.keypad || { rows: [6, 7, 8, 9, 10], cols: [11, 12, 13, 14, 15] };
    this.rows = km.rows; this.cols = km.cols;
    for (const r of this.rows) mcu.gpio[r].addListener(() => this.scanCols());
    const de = cfg.de === undefined ? 2 : cfg.de;
    if (de >= 0) mcu.gpio[de].addListener((s) => { this.de = s === GPIOPinState.High; });
    for (const [name, pin] of Object.entries(cfg.leds || { turn: 16, stop: 17, alert: 18, link: 25 })) {
      mcu.gpio[pin].addListener((s) => { this.leds[name] = s === GPIOPinState.High ? 1 : 0; });
    }
    const jp = this.cfg.jumpers;
    if (jp) {
      mcu.gpio[20].setInputValue(!jp[0]);
      mcu.gpio[21].setInputValue(!jp[1]);
    }
    const wd = mcu.peripherals[0x40058];
    wd.onWatchdogTrigger = () => {
      // the chip resets: its watchdog stops with it (rp2040js's periodic alarm would fire again
      // and again inside the same clock tick)
      wd.alarm.enable = false;
      wd.timer.enable = false;
      if (this.reboot) return;
      this.emit('D', `${simUs()}`);
      this.reboot = true;
    };
    mcu.core.PC = 0x10000000;
    this.mcu = mcu;
    this.hangs = false;
    this.scanCols();
    this.emit('R', `${simUs()}`);
  }

  // a line about this box; recorded while its boot may become a snapshot (replayed by a run
  // that restores it, with its own index); V lines only with "frames"
  emit(op, rest) {
    if (this.rec) this.rec.push([op, rest]);
    if (this.muted) return;
    if (op !== 'V' || cfg.frames) out(`${op} ${this.index} ${rest}`);
  }

  powerOff() {
    if (!this.mcu) return;
    // rp2040js's flash array is 16 MiB; the Pico's chip is 2 MiB
    this.flash = this.mcu.flash.slice(0, FLASH_SIZE);
    this.mcu = null;
    this.save();
  }

  save() {
    fs.writeFileSync(this.cfg.flash, this.flash);
  }

  scanCols() {
    const mcu = this.mcu;
    if (!mcu) return;
    this.cols.forEach((c, ci) => {
      let low = false;
      this.rows.forEach((r, ri) => {
        const p = mcu.gpio[r];
        if (this.pressed.has(ri + ',' + ci) && p.outputEnable && !p.outputValue) low = true;
      });
      mcu.gpio[c].setInputValue(!low);
    });
  }

  now() {
    return this.base + this.clock.nanos;
  }

  txByte(v) {
    // the byte leaves when the transmitter is free and arrives at its stop bit
    const start = Math.max(this.now(), this.txFree);
    this.txFree = start + BYTE_NS;
    pending.push({ at: this.txFree, box: this, v, de: this.de });
  }

  feed(bytes, fromNs) {
    for (const v of bytes) {
      const at = Math.max(fromNs === undefined ? gNs : fromNs, this.rxFree) + BYTE_NS;
      this.rxFree = at;
      this.rxq.push({ at, v });
    }
  }

  tickIo() {
    const now = gNs;
    // a PL011 hears nothing until the firmware enables it (UARTEN, RXE); rp2040js 1.4.1 would
    // keep the bytes in its FIFO from reset, so a box on the bus answered grants sent to it
    // while it booted, together with every other box that did the same
    const uart = this.mcu.uart[0];
    while (this.rxq.length && this.rxq[0].at <= now) {
      const v = this.rxq.shift().v;
      if (uart.enabled && uart.rxEnabled) uart.feedByte(v);
    }
    // (a key given a chip time, `P ... at_us`, goes down no earlier than that)
    if (this.keyq.length && now >= this.keyUntil && now >= this.keyq[0].at) {
      const k = this.keyq[0];
      if (!k.down) {
        k.down = true;
        this.emit('KD', `${simUs()} ${k.r} ${k.c}`);
        this.pressed.add(k.r + ',' + k.c);
        this.keyUntil = now + k.hold * 1e6;
      } else {
        this.pressed.delete(k.r + ',' + k.c);
        this.keyq.shift();
        this.keyUntil = now + k.gap * 1e6;
        this.emit('K', `${simUs()} ${k.r} ${k.c}`);
      }
      this.scanCols();
    }
  }

  run(untilG) {
    const clock = this.clock;
    const core = this.mcu.core;
    const untilNs = untilG - this.base;
    while (clock.nanos < untilNs && !this.reboot) {
      if (this.hangs) {
        clock.tick(Math.min(untilNs - clock.nanos, 1000));
        continue;
      }
      if (core.waiting) {
        const d = Math.min(clock.nanosToNextAlarm, untilNs - clock.nanos);
        clock.tick(d > 0 ? d : CYCLE_NS);
      } else {
        const c = core.executeInstruction();
        this.busyCycles += c;
        clock.tick(c * CYCLE_NS);
      }
    }
  }
}

// The boxes run in lockstep, a slice of chip time each in turn.
const SLICE_NS = 50000; // 50 us
const boxes = cfg.boxes.map((b, i) => new Box(i, b));
const pending = []; // bytes on their way to the wire
// the USB bridges (CONFIG "bridge"): one for the bus, or one per box point to point
let bridges = null;
if (cfg.bridge) {
  bridges = {};
  const ms = cfg.bridge.latency_ms, pk = cfg.bridge.packet || 62;
  if (cfg.bus) bridges.bus = new Bridge('bus', ms, pk, handed);
  else cfg.boxes.forEach((_, i) => { bridges[i] = new Bridge(i, ms, pk, handed); });
}
let busFree = 0;
let busOwner = -1;
// the tablet's transmissions on the bus, [start, end) ns: a box byte on the line meanwhile
// collides with it (RS-485 is half duplex: one driver at a time)
const tabletTx = [];
let tabletFree = 0;

function overTablet(startNs, endNs) {
  while (tabletTx.length && tabletTx[0][1] < gNs - 10 * SLICE_NS) tabletTx.shift();
  return tabletTx.some(([a, b]) => a < endNs && startNs < b);
}

function deliver(now) {
  pending.sort((a, b) => a.at - b.at);
  const p2p = new Map();
  let bus = [];
  let busFrom = -1;
  while (pending.length && pending[0].at <= now) {
    const p = pending.shift();
    if (cfg.bus) {
      if (!p.de) { // driver off: nothing reaches the line (the firmware forgot DE)
        out(`Z ${Math.floor(p.at / 1000)} ${p.box.index}`);
        continue;
      }
      const startAt = p.at - BYTE_NS;
      if (startAt < busFree && busOwner !== p.box.index) {
        out(`C ${Math.floor(p.at / 1000)} ${busOwner} ${p.box.index} ${p.v.toString(16).padStart(2, '0')}`);
        continue;
      }
      if (overTablet(startAt, p.at)) {
        out(`C ${Math.floor(p.at / 1000)} -1 ${p.box.index} ${p.v.toString(16).padStart(2, '0')}`);
        continue;
      }
      busFree = p.at; busOwner = p.box.index;
      bus.push(p.v);
      busFrom = p.box.index;
      // the other boxes hear the line too (a transceiver's receiver stays on with /RE low)
    } else {
      if (!p2p.has(p.box.index)) p2p.set(p.box.index, []);
      p2p.get(p.box.index).push(p.v);
    }
  }
  for (const [i, bytes] of p2p) {
    out(`U ${i} ${simUs()} ${Buffer.from(bytes).toString('hex')}`);
    if (bridges) bridges[i].push(bytes, now);
  }
  if (bus.length) {
    out(`B ${simUs()} ${Buffer.from(bus).toString('hex')} ${busFrom}`);
    if (bridges) bridges.bus.push(bus, now);
  }
  if (bridges) for (const k of Object.keys(bridges)) bridges[k].tick(now);
}

let quitting = false;
const lines = [];
readline.createInterface({ input: process.stdin }).on('line', (l) => lines.push(l));
process.stdin.on('end', () => { quitting = true; });

function command(l) {
  const a = l.trim().split(/\s+/);
  const op = a[0];
  if (op === 'W') {
    const bytes = Buffer.from(a[2] || '', 'hex');
    // the tablet's bytes go on the wire at the chip time its clock gave them (lockstep), else
    // when they come; never in the chips' past
    let from = a[3] !== undefined ? (+a[3]) * 1000 : gNs;
    if (from < gNs) {
      if (a[3] !== undefined) out(`J ${simUs()} ${a[1]} ${Math.floor((gNs - from) / 1000)}`);
      from = gNs;
    }
    if (a[1] === 'bus') {
      from = Math.max(from, tabletFree);
      tabletFree = from + bytes.length * BYTE_NS;
      tabletTx.push([from, tabletFree]);
      out(`M ${Math.floor(from / 1000)} ${a[2] || ''}`);
      for (const b of boxes) if (b.mcu) b.feed(bytes, from);
    } else {
      // said for every write, a box powered or not: the harness's tablet clock waits for it
      out(`M ${Math.floor(from / 1000)} ${a[2] || ''} ${a[1]}`);
      if (boxes[+a[1]].mcu) boxes[+a[1]].feed(bytes, from);
    }
  } else if (op === 'A') {
    held = false;
    horizon = a[1] !== undefined ? (+a[1]) * 1000 : Infinity;
  } else if (op === 'B') {
    if (!held) stand();
    out(`H ${simUs()} pin ${a[1]}`);
  } else if (op === 'E') {
    const b = boxes[+a[1]];
    b.touched = true;
    if (b.mcu) b.consoleIn(Buffer.from(a[2] || '', 'hex'));
  } else if (op === 'P') {
    boxes[+a[1]].touched = true;
    boxes[+a[1]].keyq.push({ r: +a[2], c: +a[3], hold: +a[4], gap: +a[5], down: false,
      at: a[6] !== undefined ? (+a[6]) * 1000 : 0 });
  } else if (op === 'X') {
    touch(boxes[+a[1]]);
    boxes[+a[1]].powerOff();
  } else if (op === 'O') {
    touch(boxes[+a[1]]);
    boxes[+a[1]].powerOn();
  } else if (op === 'I') {
    boxes[+a[1]].touched = true;
    boxes[+a[1]].oled.plug(a[2] === '1');
  } else if (op === 'H') {
    boxes[+a[1]].touched = true;
    boxes[+a[1]].hangs = true;
  } else if (op === 'S') {
    const b = boxes[+a[1]];
    out(`F ${a[1]} ${Buffer.from(b.oled.ram).toString('hex')} ${JSON.stringify(b.leds)} ${b.oled.on ? 1 : 0} ${Math.floor(b.oled.changedNs / 1000)} ${simUs()}`);
  } else if (op === 'G') {
    const c = boxes[+a[1]].mcu.core;
    out(`G ${a[1]} pc=${c.PC.toString(16)} lr=${c.LR.toString(16)} waiting=${c.waiting}`);
  } else if (op === 'T') {
    out(`T ${simUs()} ${wallUs()} ${boxes.map((b) => b.busyCycles).join(',')} ${boxes.map((b) => (b.spi ? b.spi.written : 0)).join(',')} ${boxes.map((b) => (b.spi ? b.spi.erased : 0)).join(',')}`);
  } else if (op === 'Q') {
    quitting = true;
  }
}

function loop() {
  while (lines.length) command(lines.shift());
  if (quitting) {
    for (const b of boxes) b.save();
    process.exit(0);
  }
  // a few ms of wall time per turn, then the chip clock is reported: the tablet's link timers
  // run on it (hardware/emu/rig.py), so the boxes never look slower to it than they are
  const sliceEnd = Date.now() + 4;
  while (Date.now() < sliceEnd && !held) {
    if (cfg.realtime !== false && gNs / 1000 > wallUs() + wallSkewUs) break;
    const until = Math.min(gNs + SLICE_NS, horizon);
    for (const b of boxes) {
      if (b.reboot) { b.reboot = false; b.powerOff(); b.powerOn(); }
      if (!b.mcu) continue;
      if (b.wakeAt >= 0 && !wake(b)) continue;
      if (b.rec) takeSnapshot(b);
      b.tickIo();
      b.run(until);
    }
    gNs = until;
    deliver(gNs);
    if (handing) {
      handing = false;
      out(`H ${simUs()} bridge`);
    } else if (!held && gNs >= horizon) {
      stand();
      out(`H ${simUs()} due`);
    }
  }
  out(`N ${simUs()}`);
  // held: nothing to run until the harness answers; a timer, not a spin, while it does
  if (held) setTimeout(loop, 1);
  else setImmediate(loop);
}

// Snapshots (CONFIG "snapshots": a directory): a box boots from reset until the firmware has
// enabled its UART, the first moment the tablet's bytes can reach it; up to then nothing from
// outside has touched the chip (no byte heard, none sent, no key, no command), so its state is
// a function of what it was built from alone: the boot ROM, the UF2 and its flash contents,
// this program and rp2040js, the pins it is wired to (the key below). Its state then (snapshot.js)
// and the lines it printed on the way are saved; a later run of a box with the same key lays
// that state onto its freshly powered-on chip and joins the table at that chip time, printing
// those lines, instead of running the same half second of chip time again. So whatever state
// this program keeps for a box lives on the box's objects (the Box, its models, rp2040js's
// peripherals), never in a variable a closure holds: snapshot.js sees only objects, and its
// check that a restore reads back as saved cannot see a closure's variable either.
const SNAP_SKIP = new Set(['cfg', 'index', 'rxq', 'rxFree', 'rec', 'snapPath', 'wakeAt', 'replay', 'touched', 'muted']);
const snapSkip = (o, key) => o instanceof Box && SNAP_SKIP.has(key);

function snapKey(b) {
  const h = crypto.createHash('sha256');
  const pkg = path.join(__dirname, 'node_modules', 'rp2040js', 'package.json');
  for (const f of [__filename, path.join(__dirname, 'snapshot.js'), pkg]) h.update(fs.readFileSync(f));
  h.update(process.version);
  h.update(bootrom);
  h.update(b.flash); // the UF2 and the box's filesystem, as the chip finds them at power-on
  h.update(JSON.stringify([b.cfg.jumpers || null, cfg.spi, cfg.keypad || null, cfg.de, cfg.leds || null]));
  return h.digest('hex').slice(0, 32);
}

function touch(b) {
  b.touched = true;
  b.wakeAt = -1; // a box powered off or on before it woke is no longer the snapshot's
}

function takeSnapshot(b) {
  if (!b.mcu.uart[0].enabled) return;
  const rec = b.rec;
  b.rec = null;
  if (b.touched || b.txFree !== 0 || b.keyq.length || b.base !== 0) return;
  try {
    const data = snapshot.save(b, snapSkip);
    const head = Buffer.from(JSON.stringify({ t: gNs, log: rec }) + '\n');
    const tmp = `${b.snapPath}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.concat([head, data]));
    fs.renameSync(tmp, b.snapPath);
  } catch (e) {
    process.stderr.write(`snapshot of box ${b.index} not saved: ${e.stack}\n`);
  }
}

function restoreSnapshot(b) {
  let buf;
  try {
    buf = fs.readFileSync(b.snapPath);
  } catch (e) {
    return false;
  }
  try {
    const nl = buf.indexOf(10);
    const head = JSON.parse(buf.subarray(0, nl).toString());
    b.muted = true; // the fresh chip's power-on says nothing: the snapshot's log does
    b.powerOn();
    snapshot.restore(b, snapshot.load(buf.subarray(nl + 1)), snapSkip);
    b.muted = false;
    b.wakeAt = head.t;
    b.replay = head.log;
    return true;
  } catch (e) {
    process.stderr.write(`snapshot of box ${b.index} not restored, booting from reset: ${e.stack}\n`);
    return false;
  }
}

// a restored box joins the table once the table's clock reaches the snapshot's time; what the
// tablet sent it before then fell on a UART not yet enabled, as in a boot from reset
function wake(b) {
  if (gNs < b.wakeAt) return false;
  b.rxq = b.rxq.filter((x) => x.at >= b.wakeAt);
  out(`RS ${b.index} ${Math.floor(b.wakeAt / 1000)}`);
  b.wakeAt = -1;
  for (const [op, rest] of b.replay) b.emit(op, rest);
  b.replay = null;
  return true;
}

boxes.forEach((b, i) => {
  loadUf2(b.flash);
  if (b.cfg.off) return;
  if (cfg.snapshots) {
    const snapPath = path.join(cfg.snapshots, `box-${snapKey(b)}.snap`);
    b.snapPath = snapPath;
    if (restoreSnapshot(b)) return;
    // a restore that failed half way leaves nothing of itself: a new box boots from reset
    b = boxes[i] = new Box(i, b.cfg);
    loadUf2(b.flash);
    b.snapPath = snapPath;
    b.rec = [];
  }
  b.powerOn();
});
// every box from a snapshot: the table starts at the earliest of their times
const starts = boxes.filter((b) => b.mcu).map((b) => Math.max(b.wakeAt, 0));
if (starts.length && Math.min(...starts) > 0) {
  gNs = Math.min(...starts);
  wallSkewUs = Math.floor(gNs / 1000);
}
if (held) out(`H ${simUs()} start`);
loop();
