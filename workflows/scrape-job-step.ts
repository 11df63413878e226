/**
 * The activity input of one step of an `auto` job (docs/scraping.md "Escalation"): pure, read by
 * the workflow that climbs the steps and by the batch activity that runs the first one. Apart from
 * workflows/definitions.ts so that the contracts (definitions.ts) and the activities' inputs
 * (activities.ts) do not import each other.
 */
import type { ScrapeActivityInput } from './activities';
import type { ScrapeJob } from './definitions';

/** The activity input of step `index` of an `auto` job: the request on that step's engine and tier, nothing debited before. */
export function jobStepInput(job: ScrapeJob, index: number): ScrapeActivityInput {
  const ladder = job.escalation!;
  const step = ladder[index]!;
  const next = ladder[index + 1];
  return {
    runId: job.runId,
    request: { ...job.request, mode: step.engine },
    finishOnSuccess: true,
    step: {
      index,
      ...(step.tier ? { tier: step.tier } : {}),
      ...(next ? { next: { engine: next.engine, ...(next.tier ? { tier: next.tier } : {}) } } : {}),
      charge: { userId: job.userId, apiKeyId: job.apiKeyId, amount: step.price },
    },
  };
}
