// Runs the Khronos glTF-Validator on each file given (.glb, or .gltf with its .bin beside
// it) and prints one line per file: `PATH errors=N warnings=N infos=N hints=N`, then every
// error and warning. Exits 1 when any file has an error or a warning, 2 on bad usage.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate_gltf.mjs FILE.glb|FILE.gltf ...');
  process.exit(2);
}
let failed = false;
for (const file of files) {
  const bytes = new Uint8Array(await readFile(file));
  const report = await validator.validateBytes(bytes, {
    uri: file,
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
  });
  const i = report.issues;
  console.log(`${file} errors=${i.numErrors} warnings=${i.numWarnings} infos=${i.numInfos} hints=${i.numHints}`);
  for (const m of i.messages) {
    const severity = ['error', 'warning', 'info', 'hint'][m.severity];
    console.log(`  ${severity} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
  }
  if (i.numErrors > 0 || i.numWarnings > 0) failed = true;
}
process.exit(failed ? 1 : 0);
