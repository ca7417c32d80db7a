import { ANALYSIS_STEPS, runAnalysis, type AnalysisStep } from '../../src/analysis/run';
import { EDGES_PER_TURN } from '../../src/analysis/view';
import { PgGraphStore } from '../../src/graph/pg/store';
import { ROLE } from '../../src/analysis/steps/azure/kinds';
import { AzureGraph } from '../helpers/azure-graph';
import { derived, inDomain, load, useAnalysis } from './analysis-graph';

/**
 * Analysis runs on the thread that answers requests, so it must hand the event loop over while it works: between
 * its steps, and inside a step that loops over many edges. Counted in turns of the loop (a setImmediate ticker),
 * not in time: without the hand-overs the steps run back to back and the ticker does not move between them.
 */
describe('analysis hands the event loop over', () => {
  const a = useAnalysis();
  const D = 'S-1-5-21-9-9-9';
  const owned = EDGES_PER_TURN * 2 + 10;

  beforeAll(async () => {
    const targets = Array.from({ length: owned }, (_, i) => `T${i}`);
    await load(a.db(), {
      nodes: [[D, 'Domain', { domainsid: D }], ...inDomain(D).users('OWNER', ...targets)],
      edges: targets.map((t) => `OWNER OwnsRaw ${t}`),
    });
  });

  /** A full analysis run with a setImmediate ticker: per step, the ticker's count before and after it. */
  async function stepTurns(): Promise<{ name: string; before: number; after: number }[]> {
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: { name: string; before: number; after: number }[] = [];
    const original = [...ANALYSIS_STEPS];
    ANALYSIS_STEPS.forEach((step, i) => {
      const wrapped: AnalysisStep = async (g, c, o) => {
        const before = turns;
        await step(g, c, o);
        seen.push({ name: step.name, before, after: turns });
      };
      ANALYSIS_STEPS[i] = wrapped;
    });
    try {
      await runAnalysis(new PgGraphStore(a.db()));
    } finally {
      ANALYSIS_STEPS.splice(0, ANALYSIS_STEPS.length, ...original);
      ticking = false;
    }
    expect(seen).toHaveLength(original.length);
    return seen;
  }

  it('between steps and within the owns step, with the same result', async () => {
    const seen = await stepTurns();
    // The ticker ran between every two steps ...
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.before).toBeGreaterThan(seen[i - 1]!.after);
    // ... and inside the owns step, which loops over more edges than one turn's worth.
    const owns = seen.find((s) => s.name === 'ownsAndWriteOwner')!;
    expect(owns.after - owns.before).toBeGreaterThanOrEqual(2);
    expect(await derived(a.db(), ['Owns'])).toHaveLength(owned);
  });

  it("within the Entra role assignments step, whose password resets are roles × a tenant's users", async () => {
    const az = new AzureGraph();
    const ga = az.role('GA', ROLE.globalAdmin);
    const users = Array.from({ length: EDGES_PER_TURN * 2 + 10 }, (_, i) => az.user(`u${i}`));
    az.hasRole(users[0]!, ga);
    await az.save(new PgGraphStore(a.db()));
    const step = (await stepTurns()).find((s) => s.name === 'roleAssignments')!;
    expect(step.after - step.before).toBeGreaterThanOrEqual(2);
    expect(await derived(a.db(), ['AZResetPassword'])).toHaveLength(users.length);
  });
});
