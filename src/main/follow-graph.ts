import { GRAPH_CHANNEL, listenForChanges } from '../db/auth-listener.js';
import type { Database } from '../db/pool.js';
import type { Logger } from '../logger.js';
import type { GraphIndexHolder } from '../services/graph/graph-index-holder.js';

/**
 * Keeps the server's path index following the graph whoever writes it: a rebuild starts on every announced
 * generation (migration 0025's notice, at the writer's commit), and a check runs every `intervalMs` besides, for a
 * notice missed while the listening connection was down. Returns the stop.
 */
export function followGraph(db: Database, index: GraphIndexHolder, intervalMs: number, log: Logger): () => Promise<void> {
  const feed = listenForChanges({ channel: GRAPH_CHANNEL, name: 'gas-graph-feed', what: 'graph change feed' }, db.pool.options, {
    log,
    onChange: () => void index.refresh(),
    // Back after an outage: whatever was announced meanwhile is read now.
    onLive: (live) => (live ? void index.refresh() : undefined),
  });
  const timer = intervalMs > 0 ? setInterval(() => void index.refresh(), intervalMs).unref() : undefined;
  return async () => {
    clearInterval(timer);
    await feed.stop();
  };
}
