// Loads an export into the speedscope app shipped by the `speedscope` npm package
// (dist/release/index.html), in headless Chromium, as a person would through its file picker:
// the page must name the profile in its title, draw a profile and log no warning or error (its
// Chrome trace importer warns about E events that match no B, for one). Takes a screenshot.
//   node speedscope_import.mjs FILE SCREENSHOT.png
// Exits 77 (skipped) without Chromium (CHROMIUM, else /usr/bin/chromium).
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const [file, shot] = process.argv.slice(2);
const executable = process.env.CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(executable)) {
  console.log('skip: no Chromium at ' + executable);
  process.exit(77);
}
const {chromium} = require('playwright-core');
const browser = await chromium.launch({executablePath: executable, args: ['--no-sandbox']});
try {
  const page = await browser.newPage({viewport: {width: 1200, height: 700}});
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => {
    // The GPU's own performance notes are not speedscope's.
    if ((m.type() === 'error' || m.type() === 'warning') && !m.text().includes('GL Driver')) {
      problems.push(m.type() + ': ' + m.text());
    }
  });
  const app = path.join(here, 'node_modules', 'speedscope', 'dist', 'release', 'index.html');
  await page.goto('file://' + app);
  await page.locator('input[type=file]').first().setInputFiles(file);
  const base = path.basename(file);
  // The title becomes "NAME - speedscope": the file's name, or a speedscope file's own.
  await page.waitForFunction(() => / - speedscope$/.test(document.title), null, {timeout: 20000});
  await page.waitForTimeout(1000);
  await page.screenshot({path: shot});
  const heading = await page.evaluate(() => document.body.innerText.split('\n').slice(0, 4));
  console.log('speedscope opened ' + base + ' as "' + (await page.title()) + '": ' +
              heading.join(' | '));
  if (problems.length) {
    console.error('FAIL: ' + problems.slice(0, 5).join('; '));
    process.exitCode = 1;
  }
} finally {
  await browser.close();
}
