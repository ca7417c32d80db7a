import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A start that fails after PGlite opened (here: DATA_DIR holds a file where the socket directory goes) must not
 * keep DATA_DIR locked or PGlite open: the same process can start again once the cause is gone.
 */
describe('embedded start that fails half-way', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-start-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('releases DATA_DIR, and a second start in the same process succeeds', () => {
    const dir = JSON.stringify(dataDir);
    // PGlite's loader needs a plain Node process (not Jest's sandbox): the script reports what it saw.
    const script = `
      const { startEmbedded } = require('./src/db/embedded');
      const { createLogger } = require('./src/logger');
      const fs = require('fs');
      const path = require('path');
      const at = (f) => fs.existsSync(path.join(${dir}, f));
      (async () => {
        const log = createLogger('silent');
        fs.writeFileSync(path.join(${dir}, 'run'), 'not a directory');
        let first;
        try {
          await startEmbedded(${dir}, log);
        } catch (err) {
          first = err.code || err.message;
        }
        const afterFailure = { lock: at('embedded.lock'), info: at('embedded.json') };
        fs.rmSync(path.join(${dir}, 'run'));
        const again = await startEmbedded(${dir}, log);
        const running = { lock: at('embedded.lock'), socket: at('run/.s.PGSQL.5432') };
        await again.stop();
        process.stdout.write(JSON.stringify({ first, afterFailure, running, stopped: { lock: at('embedded.lock') } }));
      })().catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: path.resolve(__dirname, '..', '..'),
      timeout: 90_000,
    }).toString();
    expect(JSON.parse(out)).toEqual({
      first: expect.stringMatching(/EEXIST|ENOTDIR/),
      afterFailure: { lock: false, info: false },
      running: { lock: true, socket: true },
      stopped: { lock: false },
    });
  }, 120_000);
});
