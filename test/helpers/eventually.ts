/**
 * Polls `check` until it holds. The bound only turns a hang into a failure naming `what`; it is generous on purpose,
 * so that a loaded machine never fails a test that would pass on an idle one (how fast is a benchmark's question).
 */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 25_000, everyMs = 25): Promise<void> {
  for (const end = Date.now() + ms; !(await check()); await new Promise((r) => setTimeout(r, everyMs))) {
    if (Date.now() > end) throw new Error(`${what}: still not so after ${ms} ms`);
  }
}
