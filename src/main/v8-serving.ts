import v8 from 'node:v8';

/**
 * V8 settings for a serving process, set before it answers anything.
 *
 * Allocation-site pretenuring is off. V8 allocates an object literal's site directly in the old generation once most of
 * its objects have outlived a young collection, and on Node 20's V8 (11.3) that decision did not go back in a minute of
 * load and eleven full collections. A server under load meets that case at the start: requests that arrive while the
 * path index is first built (or while a slow statement holds them) wait together for seconds. From then on a literal
 * made once per request is born old, and what a request links to it (headers, the router's state, the answer) outlives
 * the young generation with it until the next full collection: ~10 KB promoted per request instead of under 1 KB,
 * scavenges of 6–13 ms instead of ~1 ms, and 30–60 % less throughput on the routes measured, for as long as it was
 * watched (docs/decisions.md, "Serving speed"). Nothing a request makes is meant to outlive it.
 */
export function tuneV8ForServing(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
