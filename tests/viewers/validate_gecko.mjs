// Validates a Gecko profile (export --format gecko) against gecko-profile.schema.json, the
// schema written from the Firefox Profiler's importer types, with ajv (JSON Schema draft-07).
//   node validate_gecko.mjs FILE.json
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

const require = createRequire(import.meta.url);
const Ajv = require('ajv');
const here = path.dirname(fileURLToPath(import.meta.url));
const schema = JSON.parse(fs.readFileSync(path.join(here, 'gecko-profile.schema.json'), 'utf8'));
const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const ajv = new Ajv({allErrors: true, strict: false});
const validate = ajv.compile(schema);
if (!validate(doc)) {
  console.error('gecko schema: invalid:', JSON.stringify(validate.errors.slice(0, 20), null, 1));
  process.exit(1);
}
const threads = doc.processes.reduce((n, p) => n + p.threads.length, doc.threads.length);
console.log('gecko schema: valid (' + doc.processes.length + ' processes, ' + threads +
            ' threads)');
