// Validates a speedscope file against the file-format schema the `speedscope` npm package
// ships (dist/release/file-format-schema.json), with ajv (JSON Schema draft-07).
//   node validate_speedscope.mjs FILE.json
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

const require = createRequire(import.meta.url);
const Ajv = require('ajv');
const here = path.dirname(fileURLToPath(import.meta.url));
const schemaPath =
    path.join(here, 'node_modules', 'speedscope', 'dist', 'release', 'file-format-schema.json');
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
// The schema's root is a $ref into its definitions (FileFormat.File).
const ajv = new Ajv({allErrors: true, strict: false});
const validate = ajv.compile(schema);
if (!validate(doc)) {
  console.error('speedscope schema: invalid:', JSON.stringify(validate.errors, null, 1));
  process.exit(1);
}
console.log('speedscope schema: valid (' + doc.profiles.length + ' profiles, ' +
            doc.shared.frames.length + ' frames)');
