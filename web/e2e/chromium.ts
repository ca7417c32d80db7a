import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (.ci/run installs it with apt when it is missing); CHROMIUM_PATH overrides it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a quiet, offline, repeatable browser: nothing it does on its own reaches the network. */
export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--metrics-recording-only',
  '--no-default-browser-check',
];

/**
 * Headless Chromium with a fresh profile: playwright gives each launch a new temporary --user-data-dir, removed
 * when the browser closes.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Chromium refuses its sandbox as root (CI runs as root).
    chromiumSandbox: process.getuid?.() !== 0,
    args: CHROMIUM_ARGS,
  });
}
