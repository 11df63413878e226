/** The columns `npm run sessions:reencrypt` re-seals (sessions/reseal-definitions.ts; docs/operations.md "Secrets at rest"). */
import type { DefinitionColumn } from '../sessions/reseal-definitions';
import { flowNodeRequests } from '../flows/definition-secrets';

/** Every column that keeps a saved definition's request secrets sealed. */
export const DEFINITION_COLUMNS: readonly DefinitionColumn[] = [
  { table: 'flow', column: 'definition', kind: 'flow', mapRequests: flowNodeRequests },
  { table: 'flow_run', column: 'definition', kind: 'flow', mapRequests: flowNodeRequests },
  { table: 'monitor', column: 'request', kind: 'monitor' },
  { table: 'user_template', column: 'request', kind: 'template' },
  // A crawl's or batch's page template is its `scrape`.
  { table: 'crawl', column: 'request', kind: 'crawl', mapRequests: (job, change) => (job && typeof job === 'object' && 'scrape' in job ? { ...job, scrape: change(job.scrape) } : job) },
];
