/**
 * `POST /v2/crawl/params-preview` (docs/firecrawl.md "Crawl params preview"): the operator's
 * model (LLM_*) reads `{url, prompt}` and proposes the crawl's options (include/exclude paths,
 * depth, limit, sitemap, scope), validated against the shape below before they are answered.
 *
 * - Without a model configured: 400 LLM_NOT_CONFIGURED naming LLM_BASE_URL and LLM_MODEL, before
 *   anything is charged.
 * - Priced as one model format (LLM_FORMAT_PRICE on /pricing), debited before the call and
 *   refunded when the model fails (LLM_FAILED, LLM_INVALID_OUTPUT).
 * - Nothing is fetched: the URL is only text for the model, so no target guard applies here
 *   (the crawl started with these options is guarded as any other).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { debitCredit, refundCredit } from '../../accounts/credit';
import { AppError } from '../../platform/errors';
import { LLM_FORMAT_PRICE } from '../../scrape/engines';
import { llmSettingsOf, runModelFormats } from '../../scrape/llm/model-formats';
import { type Route, badRequest, reply, route } from '../route-table';
import type { AppDeps } from '../deps';
import { FIRECRAWL_CREDENTIALS, FIRECRAWL_ERROR_RESPONSES } from './schemas';

const previewBody = z.object({
  url: z.string().trim().min(1).max(2048).url('must be an absolute URL'),
  prompt: z.string().trim().min(1).max(10_000),
});

/** What the model may propose: Firecrawl's crawl options that change which pages are crawled. */
const PROPOSAL_SCHEMA = {
  type: 'object',
  properties: {
    includePaths: { type: 'array', items: { type: 'string' }, description: 'Regexes over the URL path of the pages to crawl' },
    excludePaths: { type: 'array', items: { type: 'string' }, description: 'Regexes over the URL path of pages to skip' },
    maxDiscoveryDepth: { type: 'integer', minimum: 0, maximum: 100 },
    limit: { type: 'integer', minimum: 1, maximum: 10_000 },
    sitemap: { type: 'string', enum: ['skip', 'include', 'only'] },
    crawlEntireDomain: { type: 'boolean' },
    allowSubdomains: { type: 'boolean' },
    allowExternalLinks: { type: 'boolean' },
    ignoreQueryParameters: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;

const PROPOSAL_PROMPT =
  'You configure a web crawler. From the start URL and what the user wants, propose crawl options: includePaths and excludePaths are regular expressions matched against the URL path (e.g. "^/blog/"); limit is the number of pages; maxDiscoveryDepth how many links deep from the start URL. Leave out an option you have no reason to set.';

const previewSchema = z.object({
  success: z.literal(true),
  data: z.record(z.string(), z.unknown()).meta({ description: 'Crawl options for POST /v2/crawl: includePaths, excludePaths, maxDiscoveryDepth, limit, sitemap, crawlEntireDomain, allowSubdomains, allowExternalLinks, ignoreQueryParameters' }),
});

export function crawlParamsRouteTable(deps: AppDeps): Route[] {
  return [
    route({
      method: 'post',
      path: '/v2/crawl/params-preview',
      credential: 'apiKey',
      tag: 'firecrawl',
      summary: "Firecrawl v2: the operator's model proposes crawl options for a URL and a prompt",
      description: `${FIRECRAWL_CREDENTIALS} Needs the operator's model (LLM_BASE_URL, LLM_MODEL): without it 400 LLM_NOT_CONFIGURED. Costs ${LLM_FORMAT_PRICE} credits (one model format), refunded when the model fails.`,
      body: badRequest(previewBody, { url: 'https://example.com', prompt: 'only the blog posts' }),
      responses: { 200: previewSchema, ...FIRECRAWL_ERROR_RESPONSES },
      errors: ['BAD_REQUEST', 'LLM_NOT_CONFIGURED', 'INSUFFICIENT_CREDIT', 'LLM_FAILED', 'LLM_INVALID_OUTPUT'],
      handler: async ({ auth, body }) => {
        const settings = llmSettingsOf(deps.config);
        if (!settings) {
          throw new AppError('LLM_NOT_CONFIGURED', 'crawl params preview needs a model, and this service has none configured (the operator sets LLM_BASE_URL and LLM_MODEL); nothing was charged');
        }
        const debitKey = `debit:crawl-params:${randomUUID()}`;
        await debitCredit(deps.sql, { userId: auth.userId, apiKeyId: auth.apiKeyId, amount: LLM_FORMAT_PRICE, idempotencyKey: debitKey, mode: 'llm' });
        try {
          const message = `Start URL: ${body.url}\n\nWhat the user wants crawled: ${body.prompt}`;
          const outputs = await runModelFormats(settings, message, { json: { type: 'json', schema: PROPOSAL_SCHEMA as unknown as Record<string, unknown>, prompt: PROPOSAL_PROMPT } });
          deps.logger.info({ userId: auth.userId, usage: outputs.llm_usage }, 'crawl params preview done');
          return reply(200, { success: true, data: { url: body.url, ...(outputs.json as Record<string, unknown>) } });
        } catch (error) {
          await refundCredit(deps.sql, { debitKey });
          if (error instanceof AppError) error.extra.refunded = true;
          throw error;
        }
      },
    }),
  ];
}
