// A booted box's state, saved and laid onto a box built fresh (emu.js CONFIG "snapshots").
//
// rp2040js keeps a chip's whole state in plain JS objects: memories in typed arrays, registers
// and peripherals in class instances, pending events in the clock's alarm list. What it does not
// keep as data are functions (methods, the callbacks a peripheral or emu.js installs), and those
// a box built by the same code in another process has already: so a snapshot holds the data of
// the object graph under a box, and `restore` walks a freshly powered-on box of the same build
// beside it, pairing each saved object with the fresh one at the same place, creating the ones
// the fresh box lacks (queued buffers, a Date), and writing every value in. A function is kept
// by its source text: the fresh object's own when it is the same, else the one of the same
// object (or its prototype) with that text (a DMA channel's transfer function, chosen at run
// time among its own). Anything it cannot account for makes `restore` throw, and emu.js then
// boots the box from reset as before.
//
// After a restore the box's graph is saved again and compared with the snapshot: they must be
// equal, value for value and link for link, or the restore is refused (`restore` throws).
'use strict';
const v8 = require('v8');
const zlib = require('zlib');

const TYPED = ['Uint8Array', 'Uint16Array', 'Uint32Array', 'Int8Array', 'Int16Array', 'Int32Array',
  'Float32Array', 'Float64Array', 'Uint8ClampedArray', 'DataView'];

function isObj(x) {
  return x !== null && typeof x === 'object';
}

function ctorName(o) {
  const p = Object.getPrototypeOf(o);
  return p && p.constructor ? p.constructor.name : 'null';
}

// the graph under `root` as data: [{k, ...}] indexed by id, root first. `skip(obj, key)`: a
// property that is not the box's state (its configuration, the bytes the tablet sent this run).
function capture(root, skip) {
  const ids = new Map();
  const objs = [];
  const order = [];
  function ref(x) {
    if (typeof x === 'function') return { f: x.toString() };
    if (!isObj(x)) return { v: x };
    let id = ids.get(x);
    if (id === undefined) {
      id = objs.length;
      ids.set(x, id);
      objs.push(null);
      order.push(x);
    }
    return { r: id };
  }
  ref(root);
  for (let i = 0; i < order.length; i++) {
    const o = order[i];
    const c = ctorName(o);
    if (o instanceof ArrayBuffer) {
      // the bytes up to a tail of one value (the chip's 16 MiB flash array is 0xff past the
      // Pico's 2 MiB)
      const u8 = new Uint8Array(o);
      const tail = u8.length ? u8[u8.length - 1] : 0;
      let end = u8.length;
      while (end > 0 && u8[end - 1] === tail) end--;
      objs[i] = { k: 'b', len: u8.length, tail, data: u8.slice(0, end) };
    } else if (ArrayBuffer.isView(o)) {
      const len = o instanceof DataView ? o.byteLength : o.length;
      objs[i] = { k: 'v', c, buf: ref(o.buffer).r, off: o.byteOffset, len };
    } else if (o instanceof Date) {
      objs[i] = { k: 'd', t: o.getTime() };
    } else if (Array.isArray(o)) {
      objs[i] = { k: 'a', items: Array.from(o, ref) }; // holes read as undefined
    } else if (o instanceof Map) {
      objs[i] = { k: 'm', e: [...o.entries()].map(([a, b]) => [ref(a), ref(b)]) };
    } else if (o instanceof Set) {
      objs[i] = { k: 's', e: [...o.values()].map(ref) };
    } else {
      const p = [];
      // in name order: a restored object may hold its properties in another order of creation
      for (const key of Object.keys(o).sort()) {
        if (skip(o, key)) continue;
        p.push([key, ref(o[key])]);
      }
      objs[i] = { k: 'o', c, p };
    }
  }
  return objs;
}

function save(root, skip) {
  return zlib.gzipSync(v8.serialize(capture(root, skip)), { level: 1 });
}

function load(buf) {
  return v8.deserialize(zlib.gunzipSync(buf));
}

// a function with source text `src` on `o` (its own properties, then its prototypes' methods)
function findFunction(o, src) {
  const seen = new Set();
  for (let p = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const key of Object.getOwnPropertyNames(p)) {
      const d = Object.getOwnPropertyDescriptor(p, key);
      if (d && typeof d.value === 'function' && d.value.toString() === src) seen.add(d.value);
    }
  }
  if (seen.size !== 1) throw new Error(`snapshot: ${seen.size} functions match on a ${ctorName(o)}: ${src.slice(0, 80)}`);
  return [...seen][0];
}

// lay the snapshot `objs` onto the fresh graph under `root` (built by the same code)
function restore(root, objs, skip) {
  const paired = new Array(objs.length).fill(undefined);
  const taken = new Set();
  const protos = new Map(); // constructor name -> prototype, from the fresh graph
  const kindOf = (x) => {
    if (x instanceof ArrayBuffer) return 'b';
    if (ArrayBuffer.isView(x)) return 'v';
    if (x instanceof Date) return 'd';
    if (Array.isArray(x)) return 'a';
    if (x instanceof Map) return 'm';
    if (x instanceof Set) return 's';
    return 'o';
  };
  const queue = [];
  const pair = (id, f) => {
    if (paired[id] !== undefined || !isObj(f) || taken.has(f)) return;
    const e = objs[id];
    if (kindOf(f) !== e.k || ((e.k === 'o' || e.k === 'v') && ctorName(f) !== e.c)) return;
    paired[id] = f;
    taken.add(f);
    queue.push(id);
  };
  // the alarm list links alarms by when they are due, not by whose they are: paired only
  // through their owners
  const LINKS = new Set(['next', 'nextAlarm']);
  pair(0, root);
  for (let q = 0; q < queue.length; q++) {
    const id = queue[q];
    const e = objs[id];
    const f = paired[id];
    if (e.k === 'o') {
      protos.set(e.c, Object.getPrototypeOf(f));
      for (const [key, val] of e.p) if (val.r !== undefined && !LINKS.has(key)) pair(val.r, f[key]);
    } else if (e.k === 'a') {
      e.items.forEach((val, i) => { if (val.r !== undefined) pair(val.r, f[i]); });
    } else if (e.k === 'v') {
      pair(e.buf, f.buffer);
    } else if (e.k === 'm') {
      for (const [a, b] of e.e) if (a.r === undefined && b.r !== undefined) pair(b.r, f.get(a.v));
    }
  }
  // the objects the fresh box lacks
  objs.forEach((e, id) => {
    if (paired[id] !== undefined) return;
    if (e.k === 'o') {
      const proto = e.c === 'Object' ? Object.prototype : protos.get(e.c);
      if (!proto) throw new Error(`snapshot: no ${e.c} in the fresh box to make one like it`);
      paired[id] = Object.create(proto);
    } else if (e.k === 'a') paired[id] = [];
    else if (e.k === 'm') paired[id] = new Map();
    else if (e.k === 's') paired[id] = new Set();
    else if (e.k === 'b') paired[id] = new ArrayBuffer(e.len);
    else if (e.k === 'd') paired[id] = new Date(e.t);
  });
  objs.forEach((e, id) => {
    if (paired[id] !== undefined || e.k !== 'v') return;
    if (!TYPED.includes(e.c)) throw new Error(`snapshot: unknown view ${e.c}`);
    paired[id] = new globalThis[e.c](paired[e.buf], e.off, e.len);
  });
  const value = (val, owner) => {
    if (val.r !== undefined) return paired[val.r];
    if (val.f !== undefined) return findFunction(owner, val.f);
    return val.v;
  };
  objs.forEach((e, id) => {
    const o = paired[id];
    if (e.k === 'o') {
      const keys = new Set(e.p.map(([key]) => key));
      for (const key of Object.keys(o)) {
        if (!keys.has(key) && !skip(o, key)) delete o[key];
      }
      for (const [key, val] of e.p) {
        if (val.f !== undefined && typeof o[key] === 'function' && o[key].toString() === val.f) continue;
        const v = value(val, o);
        if (!Object.is(o[key], v)) o[key] = v;
      }
    } else if (e.k === 'a') {
      if (e.items.some((val) => val.f !== undefined)) {
        // arrays of callbacks (a pin's listeners): the fresh box registered the same ones
        const mine = o.map((x) => (typeof x === 'function' ? x.toString() : null));
        if (mine.join('\0') !== e.items.map((val) => (val.f !== undefined ? val.f : null)).join('\0')) {
          throw new Error('snapshot: an array of callbacks differs');
        }
        return;
      }
      o.length = 0;
      for (const val of e.items) o.push(value(val, o));
    } else if (e.k === 'm') {
      o.clear();
      for (const [a, b] of e.e) o.set(value(a, o), value(b, o));
    } else if (e.k === 's') {
      if (e.e.some((val) => val.f !== undefined)) {
        const mine = [...o].map((x) => (typeof x === 'function' ? x.toString() : '')).sort();
        const want = e.e.map((val) => (val.f !== undefined ? val.f : '')).sort();
        if (mine.join('\0') !== want.join('\0')) throw new Error('snapshot: a set of callbacks differs');
        return;
      }
      o.clear();
      for (const val of e.e) o.add(value(val, o));
    } else if (e.k === 'b') {
      if (o.byteLength !== e.len) throw new Error('snapshot: a memory of another size');
      const u8 = new Uint8Array(o);
      u8.set(e.data);
      u8.fill(e.tail, e.data.length);
    } else if (e.k === 'v') {
      const len = o instanceof DataView ? o.byteLength : o.length;
      if (paired[e.buf] !== o.buffer || o.byteOffset !== e.off || len !== e.len) {
        throw new Error('snapshot: a view onto another part of its memory');
      }
    } else if (e.k === 'd') {
      o.setTime(e.t);
    }
  });
  // what was laid down must read back as what was saved
  const again = capture(root, skip);
  const bad = firstDifference(objs, again);
  if (bad) throw new Error(`snapshot: the restored box does not read back as saved: ${bad}`);
}

// the same data (a number is the same number however the engine stores it)
function same(a, b) {
  if (Object.is(a, b)) return true;
  if (!isObj(a) || !isObj(b)) return false;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    return ArrayBuffer.isView(a) && ArrayBuffer.isView(b) && a.length === b.length && Buffer.compare(
      Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, n) => k === kb[n] && same(a[k], b[k]));
}

// where two captures part, or null: the first object that differs, and how
function firstDifference(a, b) {
  if (a.length !== b.length) return `${a.length} objects saved, ${b.length} read back`;
  for (let i = 0; i < a.length; i++) {
    if (same(a[i], b[i])) continue;
    const e = a[i];
    const f = b[i];
    if (e.k === 'o' && f.k === 'o' && e.c === f.c) {
      const em = new Map(e.p);
      const fm = new Map(f.p);
      const keys = [...new Set([...em.keys(), ...fm.keys()])];
      const k = keys.find((key) => !same(em.get(key), fm.get(key)));
      return `object ${i} (${e.c}) .${k}: saved ${JSON.stringify(em.get(k))}, read back ${JSON.stringify(fm.get(k))}`;
    }
    return `object ${i}: saved ${JSON.stringify(e).slice(0, 200)}, read back ${JSON.stringify(f).slice(0, 200)}`;
  }
  return null;
}

module.exports = { save, load, restore };
