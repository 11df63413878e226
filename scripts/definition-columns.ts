/** The columns `npm run sessions:reencrypt` re-seals (sessions/reseal-definitions.ts; docs/operations.md "Secrets at rest"). */
import type { DefinitionColumn } from '../sessions/reseal-definitions';
import { flowNodeRequests } from '../flows/definition-secrets';
import { isRecord } from '../scrape/request-redaction';

/** Every column that keeps a saved definition's request secrets sealed. */
export const DEFINITION_COLUMNS: readonly DefinitionColumn[] = [
  { table: 'flow', column: 'definition', kind: 'flow', mapRequests: flowNodeRequests },
  { table: 'flow_run', column: 'definition', kind: 'flow', mapRequests: flowNodeRequests },
  { table: 'monitor', column: 'request', kind: 'monitor' },
  { table: 'user_template', column: 'request', kind: 'template' },
  // A crawl's or batch's page template is its `scrape`; a compatible job's webhook keeps its own headers sealed.
  { table: 'crawl', column: 'request', kind: 'crawl', mapRequests: (job, change) => (isRecord(job) && 'scrape' in job ? { ...job, scrape: change(job.scrape) } : job), mapHeaders: crawlWebhookHeaders },
  // Each delivery to such a webhook carries those headers, sealed as the job's.
  { table: 'webhook_delivery', column: '"firecrawlHeaders"', kind: 'crawl', mapRequests: (value) => value, mapHeaders: (value, change) => (isRecord(value) ? change(value) : value) },
];

/**
 * A crawl row's request with its Firecrawl webhook's headers changed (`request.webhook.firecrawl.headers`;
 * rows written before 2026-11-28 also kept the webhook as sent, in clear, under `request.firecrawl.webhook`).
 */
function crawlWebhookHeaders(job: unknown, change: (headers: Record<string, unknown>) => Record<string, string>): unknown {
  if (!isRecord(job)) return job;
  let out = job;
  const { webhook, firecrawl } = job;
  if (isRecord(webhook) && isRecord(webhook.firecrawl) && isRecord(webhook.firecrawl.headers)) {
    out = { ...out, webhook: { ...webhook, firecrawl: { ...webhook.firecrawl, headers: change(webhook.firecrawl.headers) } } };
  }
  if (isRecord(firecrawl) && isRecord(firecrawl.webhook) && isRecord(firecrawl.webhook.headers)) {
    out = { ...out, firecrawl: { ...firecrawl, webhook: { ...firecrawl.webhook, headers: change(firecrawl.webhook.headers) } } };
  }
  return out;
}
