import type { Queryable } from '../../db/pool.js';
import { createEventsStore } from '../../db/stores/collectors/events-store.js';
import { createJobsStore } from '../../db/stores/collectors/jobs-store.js';
import { asAppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { runOutsideScope } from '../../scope.js';
import { flagsOf } from './events.js';
import { describeSchedule, occurrenceAfter, parseSchedule } from './schedule.js';

export interface SchedulerDeps {
  tx: <T>(fn: (q: Queryable) => Promise<T>) => Promise<T>;
  clock: () => Date;
  log: Logger;
  /** How often to look for due events; 0 = only when `tick` is called. */
  pollMs: number;
}

/** Events handled per transaction, so one tick never holds many row locks for long. */
const BATCH = 50;

/**
 * Turns due collection events into jobs. Each tick takes due events with FOR UPDATE SKIP LOCKED, inserts the job for
 * the occurrence and moves next_scheduled_at past now in the same transaction, so replicas never double-schedule
 * and a restart resumes where the table says. Occurrences missed while no server ran become one job, not many;
 * an event that still has a job waiting to be picked up gets no second one.
 */
export function createScheduler(deps: SchedulerDeps) {
  const { log } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  // A failed tick (the database away) is never fatal: ticks pause for 1 s, 2 s, 4 s … at most 5 minutes.
  let failures = 0;
  let pausedUntil = 0;

  async function tickBatch(now: Date): Promise<{ seen: number; created: number }> {
    return deps.tx(async (q) => {
      const events = createEventsStore(q);
      const jobs = createJobsStore(q);
      const due = await events.claimDue(now, BATCH);
      let created = 0;
      for (const e of due) {
        let next: Date | null = null;
        try {
          const { rule } = parseSchedule('scheduler', e.rrule);
          next = occurrenceAfter(rule, now);
          if (!(await jobs.waitingForEvent(e.id))) {
            const id = await jobs.create({
              clientId: e.clientId,
              eventId: e.id,
              eventTitle: describeSchedule(rule),
              executionTime: e.nextScheduledAt!,
              ...flagsOf(e),
              domainController: null,
              ous: e.ous,
              domains: e.domains,
            });
            if (id !== undefined) created++;
          }
        } catch (err) {
          log.error({ err, event: e.id }, 'collection event has an unusable rule; it is no longer scheduled');
        }
        await events.setNext(e.id, next);
      }
      return { seen: due.length, created };
    });
  }

  /** One pass over every due event; returns how many jobs it created. */
  async function tick(now: Date = deps.clock()): Promise<number> {
    let created = 0;
    for (;;) {
      const r = await tickBatch(now);
      created += r.created;
      if (r.seen < BATCH) return created;
    }
  }

  return {
    tick,
    start(): void {
      if (deps.pollMs <= 0) return;
      timer = setInterval(() => {
        if (running || Date.now() < pausedUntil) return;
        running = runOutsideScope(() => tick())
          .then((n) => {
            failures = 0;
            return n;
          })
          .catch((err) => {
            failures++;
            const wait = Math.min(1000 * 2 ** (failures - 1), 300_000);
            pausedUntil = Date.now() + wait;
            if (asAppError(err)?.code === 'UNAVAILABLE') log.warn({ failures, retryInMs: wait }, 'scheduler paused: the database is away');
            else log.error({ err, failures, retryInMs: wait }, 'scheduler tick failed');
            return 0;
          })
          .finally(() => (running = undefined));
      }, deps.pollMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
