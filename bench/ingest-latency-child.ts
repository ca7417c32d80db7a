import readline from 'node:readline';
import { signRequest } from '../src/auth/signature';

/**
 * The reader of the ingest-latency benchmark, in its own process so that the uploads the parent signs and sends
 * (a 133 MB body hashed in one go) do not hold up its clock:
 *   ingest-latency-child.ts <base url> <token id> <token key> <every ms> <route…>
 * Asks each signed GET route every <every ms>, on a fixed schedule (open loop: a slow answer does not delay the
 * next request, so a stall shows as every request it held up, not as one). Stops when stdin closes, waits for the
 * requests still out, and prints every sample: a line `ready` once asking, at the end one JSON line of samples
 * [route index, sent at (epoch ms), ms, status].
 * Status 0: no answer (connection refused or reset, or none within 30 s).
 */
type Sample = [number, number, number, number];

const [base, tokenId, tokenKey, everyArg, ...routes] = process.argv.slice(2);
const EVERY_MS = Number(everyArg);
// Beyond this many requests out at once the schedule skips a beat (and counts it) rather than pile up without bound.
const MAX_IN_FLIGHT = 200;

async function ask(route: number, samples: Sample[]): Promise<void> {
  const target = routes[route]!;
  const at = performance.timeOrigin + performance.now();
  const t0 = performance.now();
  let status = 0;
  try {
    const headers = signRequest({ tokenId: tokenId!, tokenKey: tokenKey!, method: 'GET', target });
    const res = await fetch(`${base}${target}`, { headers, signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    status = res.status;
  } catch {
    status = 0;
  }
  samples.push([route, Math.round(at), Number((performance.now() - t0).toFixed(2)), status]);
}

async function main(): Promise<void> {
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<void>>();
  let skipped = 0;
  let running = true;
  readline.createInterface({ input: process.stdin }).on('close', () => (running = false));
  const timers = routes.map((_, r) =>
    // Staggered so the routes do not arrive together.
    setTimeout(
      () => {
        const tick = () => {
          if (!running) return;
          if (inFlight.size >= MAX_IN_FLIGHT) skipped++;
          else {
            const p = ask(r, samples).finally(() => inFlight.delete(p));
            inFlight.add(p);
          }
        };
        tick();
        intervals.push(setInterval(tick, EVERY_MS));
      },
      (EVERY_MS * r) / routes.length,
    ),
  );
  const intervals: NodeJS.Timeout[] = [];
  process.stdout.write('ready\n');
  while (running) await new Promise((r) => setTimeout(r, 50));
  timers.forEach(clearTimeout);
  intervals.forEach(clearInterval);
  await Promise.all(inFlight);
  process.stdout.write(JSON.stringify({ samples, skipped }) + '\n');
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
