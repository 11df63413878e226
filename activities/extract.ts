/**
 * The activities of a Firecrawl extract job (workflows/extract.workflow.ts; docs/firecrawl.md
 * "Extract"): wait for the crawl and batch jobs that scrape its pages, then the model's step.
 *
 * The model's step is charged once (LLM_FORMAT_PRICE, keyed `debit:extract:<id>`, so a retried
 * activity never charges twice) after the pages are known and before the first call, and
 * refunded when the model fails or its merged answer is not valid against the schema. No page
 * scraped: the job fails and the model is neither asked nor charged.
 */
import { Context } from '@temporalio/activity';
import { debitCredit, refundCredit } from '../accounts/credit';
import { createExtractStore, extractDebitKey } from '../crawl/extract-store';
import type { Database } from '../platform/db';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { LLM_FORMAT_PRICE } from '../scrape/engines';
import { chunkPages, mergeAnswers, relaxedSchema } from '../scrape/llm/extract-merge';
import { compileJsonSchema, validationProblem } from '../scrape/llm/json-schema';
import { type LlmSettings, runModelFormats } from '../scrape/llm/model-formats';
import type { ErrorCode } from '../platform/errors';
import type { ExtractEndStatus } from '../workflows/definitions';

/** Pages given to the model at most (the jobs' first ones, in order). */
export const EXTRACT_MAX_PAGES = 100;
const POLL_MS = 1_000;
const ENDED = new Set(['completed', 'failed', 'cancelled', 'credit_exhausted']);

export interface ExtractActivityDeps {
  db: Database;
  logger: Logger;
  llm?: LlmSettings;
}


interface Usage {
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  calls: number;
}

export function createExtractActivities(deps: ExtractActivityDeps) {
  const store = createExtractStore(deps.db);

  async function failWith(extractId: string, code: ErrorCode, message: string, refund: boolean, usage?: Usage): Promise<{ status: ExtractEndStatus }> {
    if (refund) await refundCredit(deps.db, { debitKey: extractDebitKey(extractId) });
    await store.fail(extractId, { code, message, refunded: refund }, usage);
    return { status: 'failed' };
  }

  return {
    async awaitExtractJobs(input: { extractId: string }): Promise<{ cancelled: boolean }> {
      const ctx = Context.current();
      for (;;) {
        const statuses = await store.jobStatuses(input.extractId);
        if (statuses.every((status) => ENDED.has(status))) {
          // Every job cancelled (their owner cancelled them): the extract is too, the model never asked.
          const cancelled = statuses.length > 0 && statuses.every((status) => status === 'cancelled');
          if (cancelled) await store.cancel(input.extractId);
          return { cancelled };
        }
        ctx.heartbeat();
        await ctx.sleep(POLL_MS);
      }
    },

    async runExtraction(input: { extractId: string }): Promise<{ status: ExtractEndStatus }> {
      const job = await store.byId(input.extractId);
      if (!job) throw new AppError('NOT_FOUND', `no extract job ${input.extractId}`);
      if (job.status !== 'processing') return { status: job.status };
      if (!deps.llm) return failWith(job.id, 'LLM_NOT_CONFIGURED', 'this worker has no model endpoint (LLM_BASE_URL, LLM_MODEL)', false);
      const pages = await store.pages(job.id, EXTRACT_MAX_PAGES);
      if (pages.length === 0) return failWith(job.id, 'SCRAPE_FAILED', 'none of the pages could be scraped: the model was not asked, nothing is charged for it', false);
      try {
        await debitCredit(deps.db, { userId: job.userId, apiKeyId: job.apiKeyId, amount: LLM_FORMAT_PRICE, idempotencyKey: extractDebitKey(job.id), mode: 'llm' });
      } catch (error) {
        if (error instanceof AppError && error.code === 'INSUFFICIENT_CREDIT') return failWith(job.id, 'INSUFFICIENT_CREDIT', `the model step needs ${LLM_FORMAT_PRICE} credits: ${error.message}`, false);
        throw error;
      }
      const request = job.request as { prompt?: string; systemPrompt?: string; schema?: Record<string, unknown> };
      const prompt = [request.systemPrompt, request.prompt ?? 'Extract the data the schema describes from these pages.'].filter((p) => typeof p === 'string' && p.trim() !== '').join('\n\n');
      const chunks = chunkPages(pages, deps.llm.maxInputChars);
      const usage: Usage = { model: deps.llm.model, prompt_tokens: 0, completion_tokens: 0, calls: 0 };
      const add = (u: Usage | undefined) => {
        if (!u) return;
        usage.prompt_tokens += u.prompt_tokens;
        usage.completion_tokens += u.completion_tokens;
        usage.calls += u.calls;
      };
      const answers: Array<{ value: unknown; urls: string[] }> = [];
      try {
        for (const chunk of chunks) {
          const partial = request.schema ? (relaxedSchema(request.schema) as Record<string, unknown>) : undefined;
          const outputs = await runModelFormats(deps.llm, chunk.text, { json: { type: 'json', ...(partial ? { schema: partial } : {}), prompt } });
          add(outputs.llm_usage);
          answers.push({ value: outputs.json, urls: chunk.urls });
        }
      } catch (error) {
        if (error instanceof AppError && error.code.startsWith('LLM_')) {
          add(error.extra.llm_usage as Usage | undefined);
          return failWith(job.id, error.code, error.message, true, usage);
        }
        throw error;
      }
      const merged = mergeAnswers(answers);
      if (request.schema) {
        const problem = validationProblem(compileJsonSchema(request.schema), merged.data);
        if (problem) return failWith(job.id, 'LLM_INVALID_OUTPUT', `the merged answer is not valid against the schema: ${problem.slice(0, 500)}`, true, usage);
      }
      await store.complete(job.id, { data: merged.data, sources: merged.sources, usage, pages: pages.length });
      deps.logger.info({ extractId: job.id, pages: pages.length, chunks: chunks.length, usage }, 'extract done');
      return { status: 'completed' };
    },

    async failExtraction(input: { extractId: string; code: ErrorCode; message: string }): Promise<void> {
      await refundCredit(deps.db, { debitKey: extractDebitKey(input.extractId) });
      await store.fail(input.extractId, { code: input.code, message: input.message, refunded: true });
    },
  };
}
