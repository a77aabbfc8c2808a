// Checks JSON files against a JSON Schema (draft 2020-12) with Ajv in strict mode, and
// prints one line per file: `PATH ok`, or `PATH invalid` followed by each error as
// `  POINTER: MESSAGE`. Exits 1 when any file is invalid, 2 on bad usage or a bad schema.
import { readFile } from 'node:fs/promises';
import Ajv2020 from 'ajv/dist/2020.js';

const [schemaFile, ...files] = process.argv.slice(2);
if (!schemaFile || files.length === 0) {
  console.error('usage: node check_schema.mjs SCHEMA.json FILE.json ...');
  process.exit(2);
}
let validate;
try {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  validate = ajv.compile(JSON.parse(await readFile(schemaFile, 'utf8')));
} catch (e) {
  console.error(`${schemaFile}: not a usable schema: ${e.message}`);
  process.exit(2);
}
let failed = false;
for (const file of files) {
  const value = JSON.parse(await readFile(file, 'utf8'));
  if (validate(value)) {
    console.log(`${file} ok`);
    continue;
  }
  failed = true;
  console.log(`${file} invalid`);
  for (const e of validate.errors) console.log(`  ${e.instancePath || '/'}: ${e.message}`);
}
process.exit(failed ? 1 : 0);
