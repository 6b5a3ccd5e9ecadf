// The flame graph page's static parts: its style, markup and script, around the data the
// writer puts between kPageHead and kPageTail as a JSON <script> block. Self-contained (no
// network): the page draws the frames as positioned <div>s.
//
// The data: {"title", "diff" (the base file's name, or null), "names": [frame names],
//   "events": [{"name", "unit" ("nanoseconds" or "samples" or "count"), "total",
//               "otherTotal", "tree": NODE}]}
// NODE = [name index, value, base value (diff), [NODE...]]: values inclusive of the children.
#pragma once

namespace readperf::flamegraph_page {

inline constexpr const char* kPageHead = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>readperf flame graph</title>
<style>
body { font: 12px Verdana, sans-serif; margin: 10px; background: #fafafa; color: #222; }
#bar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin-bottom: 8px; }
#bar h1 { font-size: 15px; margin: 0 12px 0 0; }
#chart { position: relative; width: 100%; overflow: hidden; background: #fff; }
.f { position: absolute; height: 16px; line-height: 16px; box-sizing: border-box;
     border-right: 1px solid #fff; overflow: hidden; white-space: nowrap; cursor: pointer;
     padding-left: 3px; font-size: 11px; color: #000; }
.f:hover { outline: 1px solid #000; z-index: 1; }
.f.dim { opacity: 0.45; }
.f.hit { background: rgb(230, 0, 230) !important; color: #fff; }
#info { min-height: 16px; margin-top: 6px; font-family: monospace; white-space: pre; }
#legend { color: #555; }
#viewers { margin-top: 10px; color: #555; }
</style></head>
<body>
<div id="bar"><h1 id="title"></h1>
<label>Event <select id="event"></select></label>
<input id="search" type="search" placeholder="Search (regex)" size="24">
<button id="reset" type="button">Reset zoom</button>
<span id="matched"></span><span id="legend"></span></div>
<div id="chart"></div>
<div id="info">Click a frame to zoom, search to highlight.</div>
<div id="viewers">The same recording in other viewers:
<a href="https://profiler.firefox.com/" target="_blank" rel="noopener">Firefox Profiler</a>
(<code>readperf export --format gecko -o out.json</code>, then "Load a profile from file"),
<a href="https://www.speedscope.app/" target="_blank" rel="noopener">speedscope</a>
(<code>--format speedscope</code>),
<a href="https://ui.perfetto.dev/" target="_blank" rel="noopener">Perfetto UI</a>
(<code>--format chrome</code>), pprof (<code>--format pprof</code>).</div>
<script id="data" type="application/json">)HTML";

inline constexpr const char* kPageTail = R"HTML(</script>
<script>
'use strict';
(function () {
  const D = JSON.parse(document.getElementById('data').textContent);
  const ROW = 17;
  const chart = document.getElementById('chart');
  const info = document.getElementById('info');
  const select = document.getElementById('event');
  const searchBox = document.getElementById('search');
  const matched = document.getElementById('matched');
  document.getElementById('title').textContent = D.title;
  if (D.diff) {
    document.getElementById('legend').textContent =
        'Differential against ' + D.diff + ': red grew, blue shrank (share of the total).';
  }

  function build(n, parent, depth) {
    const node = {name: D.names[n[0]], v: n[1], o: n[2], parent: parent, depth: depth, kids: []};
    for (const c of n[3]) node.kids.push(build(c, node, depth + 1));
    return node;
  }
  const events = D.events.map(function (e) {
    return {name: e.name, unit: e.unit, total: e.total, otherTotal: e.otherTotal,
            root: build(e.tree, null, 0)};
  });
  events.forEach(function (e, i) {
    const opt = document.createElement('option');
    opt.value = String(i);
    opt.textContent = e.name;
    select.appendChild(opt);
  });
  let ev = events[0];
  let zoomed = null;
  let pattern = null;

  function fmtValue(v) {
    if (ev.unit === 'nanoseconds') return (v / 1e6).toFixed(3) + ' ms';
    return String(v) + (ev.unit === 'samples' ? ' samples' : '');
  }
  function hash(s) {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    return (h >>> 0) / 4294967296;
  }
  function share(n) { return ev.total ? n.v / ev.total : 0; }
  function baseShare(n) { return ev.otherTotal ? n.o / ev.otherTotal : 0; }
  let maxDelta = 0;
  function computeMaxDelta(n) {
    maxDelta = Math.max(maxDelta, Math.abs(share(n) - baseShare(n)));
    n.kids.forEach(computeMaxDelta);
  }
  function color(n) {
    if (D.diff) {
      const d = share(n) - baseShare(n);
      const k = maxDelta ? Math.round(210 * Math.abs(d) / maxDelta) : 0;
      return d > 0 ? 'rgb(255,' + (255 - k) + ',' + (255 - k) + ')'
                   : 'rgb(' + (255 - k) + ',' + (255 - k) + ',255)';
    }
    const r = hash(n.name), g = hash(n.name + '.');
    return 'rgb(' + (205 + Math.round(50 * r)) + ',' + Math.round(230 * g) + ',' +
           Math.round(55 * r) + ')';
  }
  function describe(n) {
    let s = n.name + '  ' + fmtValue(n.v) + ' (' + (100 * share(n)).toFixed(2) + '%)';
    if (D.diff) {
      const d = 100 * (share(n) - baseShare(n));
      s += '  ' + (d >= 0 ? '+' : '') + d.toFixed(2) + '% vs base ' +
           (100 * baseShare(n)).toFixed(2) + '%';
    }
    return s;
  }

  function render() {
    chart.textContent = '';
    const z = zoomed || ev.root;
    const width = chart.clientWidth;
    const items = [];
    for (let a = z.parent; a; a = a.parent) items.push([a, 0, width, true]);
    (function lay(n, x, w) {
      items.push([n, x, w, false]);
      let cx = x;
      for (const k of n.kids) {
        const kw = n.v ? w * k.v / n.v : 0;
        if (kw >= 0.5) lay(k, cx, kw);
        cx += kw;
      }
    })(z, 0, width);
    let depth = 0;
    for (const it of items) depth = Math.max(depth, it[0].depth);
    chart.style.height = ((depth + 1) * ROW) + 'px';
    const frag = document.createDocumentFragment();
    for (const it of items) {
      const n = it[0];
      const div = document.createElement('div');
      div.className = 'f' + (it[3] ? ' dim' : '') + (pattern && pattern.test(n.name) ? ' hit' : '');
      div.style.left = it[1] + 'px';
      div.style.width = it[2] + 'px';
      div.style.top = ((depth - n.depth) * ROW) + 'px';
      div.style.background = color(n);
      if (it[2] > 28) div.textContent = n.name;
      div.title = describe(n);
      div.dataset.name = n.name;
      div.dataset.depth = String(n.depth);
      div.addEventListener('click', function () {
        zoomed = n.parent ? n : null;
        render();
        info.textContent = describe(n);
      });
      div.addEventListener('mouseenter', function () { info.textContent = describe(n); });
      frag.appendChild(div);
    }
    chart.appendChild(frag);
    chart.dataset.zoomed = zoomed ? zoomed.name : '';
    updateMatched();
  }

  // The share of the samples in frames the search matches, each stack counted once.
  function updateMatched() {
    if (!pattern) { matched.textContent = ''; return; }
    let sum = 0;
    (function walk(n) {
      if (pattern.test(n.name)) { sum += n.v; return; }
      n.kids.forEach(walk);
    })(ev.root);
    matched.textContent = 'Matched: ' + (ev.total ? (100 * sum / ev.total).toFixed(2) : '0') + '%';
  }

  function selectEvent(i) {
    ev = events[i];
    zoomed = null;
    maxDelta = 0;
    computeMaxDelta(ev.root);
    render();
  }
  select.addEventListener('change', function () { selectEvent(Number(select.value)); });
  searchBox.addEventListener('input', function () {
    const text = searchBox.value;
    try { pattern = text ? new RegExp(text) : null; } catch (e) { pattern = null; }
    render();
  });
  document.getElementById('reset').addEventListener('click', function () {
    zoomed = null;
    render();
  });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') { zoomed = null; render(); }
  });
  if (!events.length) {
    info.textContent = 'No samples in this recording.';
    return;
  }
  window.addEventListener('resize', render);
  selectEvent(0);
})();
</script>
</body></html>
)HTML";

}  // namespace readperf::flamegraph_page
