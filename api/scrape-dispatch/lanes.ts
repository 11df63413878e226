/** The lane pool: the running scrapeLaneWorkflows of this process, by batch key (api/scrape-dispatch.ts). */
import { randomUUID } from 'node:crypto';
import { SCRAPE_ENGINES } from '../../scrape/engines';
import { LANE_MAX_RUNS, workflowIds } from '../../workflows/definitions';
import type { Batch, Lane } from './types';

/**
 * A lane unused for this long is not used again (it ends by itself 60 s after its last batch:
 * workflows/scrape.workflow.ts LANE_IDLE_END), so a Signal never races its end.
 */
const LANE_REUSE_MS = 45_000;

/**
 * How long the key's next batch waits, after this one's Signal, for this one's answers. Waiting
 * lets the next batch gather more requests (fewer hand-overs under load); the cap keeps a slow
 * page from holding it (docs/benchmarks.md "A lane prototype", measured with Updates, whose
 * acceptance came about when the answers did: no wait 70–79 req/s at c=32, 50 ms 86–93, 200 ms 105).
 */
const LANE_SEND_CAP_MS = 200;

/**
 * The same for an `own-queue` engine (browser): its pages take seconds under load, and each
 * batch costs the Temporal server and the API about the same whatever its size, so waiting
 * longer gathers more pages per batch.
 */
const LANE_SEND_CAP_OWN_QUEUE_MS = 1000;

/** The batch's answers, or its cap, whichever comes first. */
export function answeredOrCap(batch: Batch): Promise<void> {
  const ms = SCRAPE_ENGINES[batch.jobs[0]!.request.mode].placement === 'own-queue' ? LANE_SEND_CAP_OWN_QUEUE_MS : LANE_SEND_CAP_MS;
  let cap: NodeJS.Timeout | undefined;
  return Promise.race([batch.answered, new Promise<void>((resolve) => (cap = setTimeout(resolve, ms)))]).finally(() => clearTimeout(cap));
}

export interface LanePool {
  /** Gives a standalone batch to a lane of its key (moving it off the one it had, if any). */
  assign(batch: Batch): void;
}

const usable = (lane: Lane, now: number, runs: number) =>
  !lane.retired && lane.busy === 0 && lane.runs + runs <= LANE_MAX_RUNS && now - lane.usedAt <= LANE_REUSE_MS;

/** A lane that may take a batch again, or whose requests are still waiting here. */
const worthKeeping = (lane: Lane, now: number) => usable(lane, now, 0) || lane.busy > 0;

export function createLanePool(): LanePool {
  // Lanes by key; they outlive the key's requests (LANE_REUSE_MS).
  const lanes = new Map<string, Lane[]>();
  const instance = randomUUID().slice(0, 8);
  let laneCount = 0;
  const pruneLanes = setInterval(() => {
    const now = Date.now();
    for (const [key, list] of lanes) {
      const live = list.filter((lane) => worthKeeping(lane, now));
      if (live.length) lanes.set(key, live);
      else lanes.delete(key);
    }
  }, LANE_REUSE_MS);
  pruneLanes.unref();

  /** An idle lane of the key with room for `runs`, or a new one. */
  function laneFor(key: string, runs: number): Lane {
    const now = Date.now();
    const list = (lanes.get(key) ?? []).filter((lane) => worthKeeping(lane, now));
    lanes.set(key, list);
    let lane = list.find((candidate) => usable(candidate, now, runs));
    if (!lane) {
      lane = { workflowId: workflowIds.scrapeLane(instance, laneCount++), runs: 0, busy: 0, usedAt: now, started: false };
      list.push(lane);
    }
    return lane;
  }

  return {
    assign(batch) {
      const sync = !batch.options.async;
      if (batch.lane && sync) batch.lane.busy -= batch.jobs.length;
      const lane = laneFor(batch.key, batch.jobs.length);
      lane.usedAt = Date.now();
      lane.runs += batch.jobs.length;
      if (sync) lane.busy += batch.jobs.length;
      else lane.retired = true;
      batch.lane = lane;
      batch.workflowId = lane.workflowId;
    },
  };
}
