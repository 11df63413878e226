/**
 * The `changeTracking` format of a one-off scrape (docs/scraping.md "Change tracking";
 * Firecrawl's format of that name): the markdown against the account's previous succeeded scrape
 * of the same URL (scrape_run rows), compared as a monitor compares (monitors/compare.ts).
 */
import { REMOVED_HTTP_STATUSES, diffSnapshots, snapshotOf } from '../../monitors/compare';
import type { ScrapeRunStore } from '../../scrape/runs';
import type { ChangeTracking, ScrapeResult } from '../../scrape/types';

export async function changeTrackingOf(runs: Pick<ScrapeRunStore, 'previousMarkdown'>, runId: string, result: ScrapeResult): Promise<ChangeTracking> {
  const previous = await runs.previousMarkdown(runId);
  const previousScrapeAt = previous ? previous.finishedAt.toISOString() : null;
  if (REMOVED_HTTP_STATUSES.includes(result.status)) return { changeStatus: 'removed', previousScrapeAt, diff: null };
  if (!previous) return { changeStatus: 'new', previousScrapeAt: null, diff: null };
  const before = snapshotOf({ markdown: previous.markdown }, 'markdown', { patterns: [] }) ?? '';
  const after = snapshotOf({ markdown: result.markdown ?? '' }, 'markdown', { patterns: [] }) ?? '';
  if (before === after) return { changeStatus: 'same', previousScrapeAt, diff: null };
  return { changeStatus: 'changed', previousScrapeAt, diff: diffSnapshots(before, after, 'markdown', { before: previousScrapeAt!, after: new Date().toISOString() }).markdown ?? null };
}
