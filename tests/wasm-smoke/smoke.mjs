// Runs the wasm32 smoke module under node and checks every number against expected.json
// (which octile's native test tests/wasm_smoke.rs checks too). Exit 1 on any difference.
// Usage: node smoke.mjs MODULE.wasm expected.json
import { readFileSync } from "node:fs";

const [wasmPath, expectedPath] = process.argv.slice(2);
if (!wasmPath || !expectedPath) {
  console.error("usage: node smoke.mjs MODULE.wasm expected.json");
  process.exit(2);
}
const expected = JSON.parse(readFileSync(expectedPath, "utf8"));
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const { octile_smoke, octile_smoke_items } = instance.exports;
if (octile_smoke_items() !== expected.names.length) {
  console.error(`the module gives ${octile_smoke_items()} numbers, expected.json names ${expected.names.length}`);
  process.exit(1);
}
let failed = 0;
for (const [seed, numbers] of Object.entries(expected.seeds)) {
  const start = performance.now();
  // A wasm i64 reaches JavaScript as a signed BigInt; the numbers are u64.
  const got = expected.names.map((_, i) => BigInt.asUintN(64, octile_smoke(BigInt(seed), i)).toString());
  const ms = (performance.now() - start).toFixed(0);
  const wrong = expected.names.filter((_, i) => got[i] !== numbers[i]);
  wrong.forEach((name) => {
    const i = expected.names.indexOf(name);
    console.error(`seed ${seed}: ${name} is ${got[i]} under wasm32, ${numbers[i]} natively`);
  });
  failed += wrong.length;
  console.log(`seed ${seed}: ${got.length} numbers, ${wrong.length ? `${wrong.length} differ` : "all as native"} (${ms} ms)`);
}
process.exit(failed ? 1 : 0);
