// Runs a MicroPython script on the WebAssembly port (32-bit: 4-byte pointers and 16-byte heap
// blocks, as on the RP2040), with a directory of files copied into its in-memory filesystem:
//   node bench/wasm/run.mjs TREE MOUNT SCRIPT [ARGS...]
// TREE is copied to MOUNT; ARGS reach the script as BOX_ARGV (this build has no sys.argv). The
// script is run in pieces split at "# --- phase ---" lines, because this port collects garbage
// only between top-level runs (gc.collect() inside running code does nothing here).
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";

const [tree, mount, script, ...args] = process.argv.slice(2);
if (!script) {
  console.error("usage: node run.mjs TREE MOUNT SCRIPT [ARGS...]");
  process.exit(2);
}
const mp = await loadMicroPython({
  heapsize: 512 * 1024,
  stdout: (s) => process.stdout.write(s + "\n"),
  stderr: (s) => process.stderr.write(s + "\n"),
});
function copy(src, dst) {
  mp.FS.mkdirTree(dst);
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, e.name);
    if (e.isDirectory()) copy(s, dst + "/" + e.name);
    else mp.FS.writeFile(dst + "/" + e.name, fs.readFileSync(s));
  }
}
copy(tree, mount);
mp.FS.mkdirTree("/tmp");
mp.runPython("BOX_ARGV = " + JSON.stringify(["run.mjs", ...args]));
try {
  for (const piece of fs.readFileSync(script, "utf8").split(/^# --- phase ---$/m)) mp.runPython(piece);
} catch (e) {
  // a Python exception: its traceback only (the JS error text carries the whole module source)
  console.error(String(e.message || e).slice(0, 4000));
  process.exit(1);
}
