// Preloaded into a server (`PROBE_NODE_ARGS="--require $PWD/bench/probes/survivors.cjs"` with cold-start.ts or
// latency-timeline.ts): V8's sampling heap profiler, asked only for objects that outlive a young collection
// (promoted, or born old), from 8 s after start for 3 s. Writes /tmp/survivors.heapprofile (open it in Chrome
// DevTools' Memory tab); objects that die young are left out, so what remains is what full collections will pay for.
const inspector = require('node:inspector');
const fs = require('node:fs');

const session = new inspector.Session();
session.connect();
setTimeout(() => {
  const options = { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false };
  session.post('HeapProfiler.startSampling', options, () => {
    setTimeout(() => {
      session.post('HeapProfiler.stopSampling', (err, result) => {
        if (err) process.stderr.write(`survivors: ${err.message}\n`);
        else fs.writeFileSync('/tmp/survivors.heapprofile', JSON.stringify(result.profile));
      });
    }, 3000).unref();
  });
}, 8000).unref();
