// Opens a flame graph page from `readperf flamegraph` in headless Chromium (Debian's chromium,
// driven by playwright-core) as a person would: takes a screenshot, clicks a frame and checks
// the graph zoomed on it (the frame now spans the chart's width, its ancestors dimmed), types
// a search and checks frames are highlighted with a matched share, then resets the zoom.
//   node flamegraph_browser.mjs PAGE.html SCREENSHOT_PREFIX
// Writes SCREENSHOT_PREFIX-initial.png and SCREENSHOT_PREFIX-zoomed.png. Exits 77 (skipped)
// when there is no Chromium (CHROMIUM, else /usr/bin/chromium).
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';

const require = createRequire(import.meta.url);
const [page_path, shot] = process.argv.slice(2);
const executable = process.env.CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(executable)) {
  console.log('skip: no Chromium at ' + executable);
  process.exit(77);
}
const {chromium} = require('playwright-core');

function fail(what) {
  console.error('FAIL: ' + what);
  process.exitCode = 1;
}

const browser = await chromium.launch({executablePath: executable, args: ['--no-sandbox']});
try {
  const page = await browser.newPage({viewport: {width: 1200, height: 700}});
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // No network: any request other than the page itself fails the test.
  await page.route('**/*', (route) => {
    if (route.request().url().startsWith('file:')) return route.continue();
    errors.push('network request: ' + route.request().url());
    return route.abort();
  });
  await page.goto('file://' + path.resolve(page_path));
  await page.waitForSelector('#chart .f');
  await page.screenshot({path: shot + '-initial.png', fullPage: true});

  const chartWidth = await page.$eval('#chart', (c) => c.getBoundingClientRect().width);
  // The widest frame at depth 3 or deeper narrower than the chart: a frame worth zooming into.
  const target = await page.$$eval('#chart .f', (divs, full) => {
    let best = null;
    divs.forEach((d, i) => {
      const w = d.getBoundingClientRect().width;
      if (Number(d.dataset.depth) >= 2 && w < full * 0.9 && w > 4 && (!best || w > best.w)) {
        best = {name: d.dataset.name, depth: d.dataset.depth, w: w, index: i};
      }
    });
    return best;
  }, chartWidth);
  if (!target) {
    fail('no frame narrower than the chart to click');
  } else {
    console.log(`clicking "${target.name}" (depth ${target.depth}, ${target.w.toFixed(1)} of ${
        chartWidth} px)`);
    // A person's click: scrolled into view, at the frame's centre.
    await page.locator('#chart .f').nth(target.index).click();
    const zoomed = await page.$eval('#chart', (c) => c.dataset.zoomed);
    if (zoomed !== target.name) fail(`zoomed on "${zoomed}", not "${target.name}"`);
    const after = await page.$$eval(
        '#chart .f', (divs, t) => divs.filter((d) => d.dataset.name === t.name &&
                                                     d.dataset.depth === t.depth)
                                      .map((d) => d.getBoundingClientRect().width),
        target);
    if (!after.some((w) => Math.abs(w - chartWidth) < 1)) {
      fail(`the clicked frame is ${after} px wide after the click, not ${chartWidth}`);
    } else {
      console.log('zoomed: the clicked frame spans the chart (' + chartWidth + ' px)');
    }
    const dimmed = await page.$$eval('#chart .f.dim', (d) => d.length);
    if (dimmed !== Number(target.depth)) fail(`${dimmed} dimmed ancestors, want ${target.depth}`);
    await page.screenshot({path: shot + '-zoomed.png', fullPage: true});
  }

  await page.click('#reset');
  const name = target ? target.name : 'main';
  await page.fill('#search', '^' + name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$');
  const hits = await page.$$eval('#chart .f.hit', (d) => d.length);
  const matched = await page.$eval('#matched', (m) => m.textContent);
  if (!hits || !/^Matched: \d+\.\d\d%$/.test(matched)) {
    fail(`search for ${name}: ${hits} highlighted, "${matched}"`);
  } else {
    console.log(`search: ${hits} frames highlighted, ${matched}`);
  }
  const events = await page.$$eval('#event option', (o) => o.length);
  if (events > 1) {
    await page.selectOption('#event', '1');
    const frames = await page.$$eval('#chart .f', (d) => d.length);
    if (!frames) fail('the second event draws no frames');
    console.log(`event selector: ${events} events, the second draws ${frames} frames`);
  }
  if (errors.length) fail(errors.join('; '));
} finally {
  await browser.close();
}
if (!process.exitCode) console.log('flame graph page: ok');
