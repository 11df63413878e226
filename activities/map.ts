/**
 * The map activity (docs/crawl.md "Map"): one attempt of a map, as an ordinary scrape run's
 * attempt (`scrapeOnce`: the attempt marked, the run debited once by its key, the result stored
 * in scrape_run, the run finished, the API told in-process), with the map engine (crawl/map.ts)
 * instead of a page engine. Run as a local activity by `mapWorkflow`.
 */
import { Context } from '@temporalio/activity';
import { createMapEngine } from '../crawl/map';
import type { MapWorkflowInput, ScrapeActivityOutput } from '../workflows/definitions';
import type { HttpEngine } from '../scrape/http/engine';
import { type ScrapeActivityDeps, scrapeOnce } from './scrape/run-scrape';

export function createMapActivities(deps: ScrapeActivityDeps & { httpEngine: Pick<HttpEngine, 'scrape' | 'fetchRaw'> }) {
  return {
    async mapSite(input: MapWorkflowInput): Promise<ScrapeActivityOutput> {
      const ctx = Context.current();
      const { job } = input;
      return scrapeOnce(
        deps,
        createMapEngine({ httpEngine: deps.httpEngine }, input.map),
        { runId: job.runId, request: job.request, finishOnSuccess: true, debit: { userId: job.userId, apiKeyId: job.apiKeyId, amount: job.cost } },
        ctx.info.attempt,
        ctx.cancellationSignal,
      );
    },
  };
}
