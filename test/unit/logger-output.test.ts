import { spawn } from 'node:child_process';
import path from 'node:path';

const LOGGER = path.resolve(__dirname, '..', '..', 'src', 'logger.ts');

/**
 * Runs a script against the service's stdout logger in a child process and collects its stdout with the time each
 * chunk arrived (ms after start).
 */
function run(script: string): Promise<{ code: number | null; chunks: { at: number; text: string }[] }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
    env: { PATH: process.env.PATH ?? '', LOGGER },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const chunks: { at: number; text: string }[] = [];
  child.stdout.on('data', (d: Buffer) => chunks.push({ at: Date.now() - started, text: d.toString() }));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, chunks })));
}

/** The lines written, whatever chunks they arrived in. */
const linesOf = (chunks: { text: string }[]) =>
  chunks
    .map((c) => c.text)
    .join('')
    .trim()
    .split('\n');

describe('the stdout logger (lines are written in blocks)', () => {
  it('writes what waits when the process exits', async () => {
    const { code, chunks } = await run(
      `const { createLogger } = require(process.env.LOGGER);
       const log = createLogger('info');
       for (let i = 0; i < 3; i++) log.info({ i }, 'line');
       process.exit(0);`,
    );
    expect(code).toBe(0);
    const lines = linesOf(chunks);
    expect(lines.map((l) => JSON.parse(l).i)).toEqual([0, 1, 2]);
  });

  it('writes a lone line while the process goes on', async () => {
    // The child logs one line and then lives until it is killed: only the periodic flush can write the line (an exit
    // would flush it too, so there is none), however slow the machine. Without the flush the test times out.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `const { createLogger } = require(process.env.LOGGER); createLogger('info').info('lone line'); setInterval(() => {}, 1000);`,
      ],
      { env: { PATH: process.env.PATH ?? '', LOGGER }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      let out = '';
      await new Promise<void>((resolve) =>
        child.stdout.on('data', (d: Buffer) => (out += d.toString()).includes('lone line') && resolve()),
      );
      expect(child.exitCode).toBeNull();
      expect(JSON.parse(out.trim())).toMatchObject({ msg: 'lone line' });
    } finally {
      child.kill();
    }
  });

  it('keeps every line whole and in order through a burst of many blocks', async () => {
    const { code, chunks } = await run(
      `const { createLogger } = require(process.env.LOGGER);
       const log = createLogger('info');
       for (let i = 0; i < 5000; i++) log.info({ i, pad: 'x'.repeat(i % 300) }, 'burst');
       setTimeout(() => process.exit(0), 500);`,
    );
    expect(code).toBe(0);
    const lines = linesOf(chunks);
    expect(lines.map((l) => JSON.parse(l).i)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    // Blocks, not a write per line.
    expect(chunks.length).toBeLessThan(1000);
  });
});
