// What an object literal that starts with a spread and then adds keys costs on this Node's V8, next to the forms
// that build the same object (docs/benchmarks.md, eighteenth pass). Each form runs alone in a child process started
// with --trace-gc-nvp and --allow-natives-syntax; the bytes scavenges promoted are summed and divided by the objects
// made, after subtracting a run that makes none (start-up). Run from the repository root (zod is one of the forms):
//
//   node bench/probes/spread-shapes.cjs          (PROBE_OBJECTS, default 1,000,000)
'use strict';
const { execFileSync } = require('node:child_process');

const N = Number(process.env.PROBE_OBJECTS || 1_000_000);
const SETUP = `
  const one = { error: 1 }, three = { a: 1, b: 2, c: 3 }, five = { a: 1, b: 2, c: 3, d: 4, e: 5 };
  const args = { schema: 1, document: 2, rootValue: 3, contextValue: 4, variableValues: 5, operationName: 6 };
  const props = {};
  for (let k = 0; k < 15; k++) props['property' + k] = k % 2 ? 'value ' + k : k;
  // A SharpHound user's Properties, keys lower-cased into a fresh object as the converter does (cleanProperties).
  const raw = {};
  for (let k = 0; k < 31; k++) raw['Property' + k] = k % 5 === 0 ? [] : k % 3 === 0 ? true : 'VALUE-' + k;
  const clean = (r) => { const out = {}; for (const [k, v] of Object.entries(r)) out[k.toLowerCase()] = v; return out; };
  const now = new Date().toISOString();
  const { z } = require('zod');
  const str = z.string(), opts = { error: () => undefined };
`;
const FORMS = {
  '{ ...one, async: false }': '({ ...one, async: false })',
  '{ ...three, x }': '({ ...three, x: i })',
  '{ ...five, x }': '({ ...five, x: i })',
  '{ ...three, x, y, z }': '({ ...three, x: i, y: 1, z: 2 })',
  '{ ...one, ...three }': '({ ...one, ...three })',
  'o = { ...three }; o.x = i': '((o) => ((o.x = i), o))({ ...three })',
  '{ ...args, contextValue } (a key it brought)': '({ ...args, contextValue: i })',
  '{ async: false, ...one }': '({ async: false, ...one })',
  '{ a, ...three, x }': '({ a0: 0, ...three, x: i })',
  'Object.assign({}, three, { x })': 'Object.assign({}, three, { x: i })',
  'node of 15 properties, spread': "({ ...props, objectid: 'S-1', kinds: [], nodetype: 'User' })",
  'node of 15 properties, Object.assign': "Object.assign({}, props, { objectid: 'S-1', kinds: [], nodetype: 'User' })",
  "SharpHound user's 31 properties, spread": "({ ...clean(raw), objectid: 'S-1', lastcollected: now, lastseen: now })",
  "SharpHound user's 31 properties, in place": "Object.assign(clean(raw), { objectid: 'S-1', lastcollected: now, lastseen: now })",
  "zod safeParse('abc', options)": "str.safeParse('abc', opts)",
  "zod safeParse('abc')": "str.safeParse('abc')",
};

function run(expr, n) {
  const body = `${SETUP}
    let last, prev, same = true;
    const t0 = performance.now();
    for (let i = 0; i < ${n}; i++) { prev = last; last = ${expr}; }
    const us = ((performance.now() - t0) * 1000) / Math.max(1, ${n});
    if (${n} > 1 && typeof last === 'object') same = %HaveSameMap(last, prev);
    console.log('RESULT ' + JSON.stringify({ us, same }));`;
  const out = execFileSync(process.execPath, ['--trace-gc-nvp', '--allow-natives-syntax', '-e', body], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  let promoted = 0;
  for (const m of out.matchAll(/gc=s .*?promoted=(\d+)/g)) promoted += Number(m[1]);
  const result = JSON.parse(/RESULT (.*)/.exec(out)[1]);
  return { promoted, ...result };
}

for (const [name, expr] of Object.entries(FORMS)) {
  const base = run(expr, 0).promoted;
  const r = run(expr, N);
  const perObject = Math.max(0, (r.promoted - base) / N);
  console.log(`${name.padEnd(44)} ${perObject.toFixed(1).padStart(8)} B promoted  ${r.us.toFixed(3).padStart(7)} µs  same map: ${r.same}`);
}
