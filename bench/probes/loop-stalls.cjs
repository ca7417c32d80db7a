// Preload (`node --require`): writes the process's event-loop stalls and long garbage collections, with wall-clock
// times, to LOOP_STALLS_LOG, so a latency tail can be matched to what the server (or the load generator) was doing.
// A 5 ms timer that fires more than 8 ms late is a stall; a collection is listed when it took over 3 ms
// (gc kinds: 1 scavenge, 2 minor mark-compact, 4 mark-compact, 8 incremental marking, 16 weak callbacks).
'use strict';
const fs = require('node:fs');
const { PerformanceObserver } = require('node:perf_hooks');

const file = process.env.LOOP_STALLS_LOG || `/tmp/loop-stalls-${process.pid}.log`;
const lines = [];
const wall = (t) => (performance.timeOrigin + t).toFixed(0);
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  const late = now - last - 5;
  if (late > 8) lines.push(`${wall(now)} late ${late.toFixed(1)}`);
  last = now;
}, 5).unref();
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.duration > 3) lines.push(`${wall(e.startTime)} gc${e.detail ? e.detail.kind : ''} ${e.duration.toFixed(1)}`);
}).observe({ entryTypes: ['gc'] });
setInterval(() => {
  if (lines.length) fs.appendFileSync(file, lines.splice(0).join('\n') + '\n');
}, 2000).unref();
