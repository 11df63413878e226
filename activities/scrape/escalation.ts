/**
 * The parts of a scrape attempt that are an `auto` run's (docs/scraping.md "Escalation"): which
 * proxy tier an attempt goes through, when a block or a page needing JavaScript moves the run on
 * (a failure the workflow reads), the run's `escalation` record, the metrics, and the one charge
 * at the price of the step that served the page.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { type DebitInput, getBalance } from '../../accounts/credit';
import type { ProxyEndpoint } from '../../platform/proxy-endpoints';
import { scrapeCreditKeys } from '../../scrape/credit-keys';
import { type ProxyTier, stepLabel } from '../../scrape/proxy-tiers';
import type { ScrapeRequestPayload } from '../../scrape/request';
import type { EscalationEntry } from '../../scrape/run-attempts';
import type { StoredResult, ScrapeResult } from '../../scrape/types';
import type { ScrapeActivityInput, ScrapeStep } from '../../workflows/activities';
import type { ScrapeActivityDeps } from './activity-deps';

/** The tier an attempt goes through: the step's, else the one the request pinned, else (with a country) the cheapest serving it. */
export function attemptTier(deps: ScrapeActivityDeps, request: ScrapeRequestPayload, step?: ScrapeStep): ProxyTier | undefined {
  if (step) return step.tier;
  if (request.proxy_tier && request.proxy_tier !== 'auto') return request.proxy_tier;
  return request.country ? deps.proxyTiers?.tiersFor(request.country)[0] : undefined;
}

/**
 * The proxy of an attempt that names a tier or a country (else undefined: the caller's PROXY_URLS
 * rotation as before). A country or tier with no pool here fails PROXY_FAILED, final: the API
 * refused such requests, so only a worker configured differently from the API gets here.
 */
export function tierProxy(deps: ScrapeActivityDeps, request: ScrapeRequestPayload, tier: ProxyTier | undefined): ProxyEndpoint | undefined {
  if (request.proxy === 'none' || (!tier && !request.country)) return undefined;
  const rotation = tier ? deps.proxyTiers?.rotation(tier, request.country) : undefined;
  // `basic` with no pool and no country: direct, as the API planned it (api/scrape-escalation.ts).
  if (!rotation && tier === 'basic' && !request.country && !deps.proxyTiers) return undefined;
  if (!rotation) {
    const where = request.country ? ` for country ${request.country}` : '';
    throw ApplicationFailure.nonRetryable(`this worker has no ${tier ?? 'proxy'} pool${where} (PROXY_TIERS)`, 'PROXY_FAILED');
  }
  return rotation.pick();
}

/**
 * What an answer means for an `auto` step before its last: a block page or (http) a page needing
 * JavaScript fails the attempt at once, final for the step, so the workflow moves on. undefined:
 * the answer is for the usual rules.
 */
export function escalationFailure(input: ScrapeActivityInput, result: ScrapeResult, blockedMessage?: string): ApplicationFailure | undefined {
  const { step, request } = input;
  if (!step?.next) return undefined;
  if (blockedMessage) return ApplicationFailure.create({ message: blockedMessage, type: 'TARGET_BLOCKED', nonRetryable: true, details: [{ blocked_by: result.blocked_by, status: result.status }] });
  if (request.mode === 'http' && result.needs_javascript) {
    return ApplicationFailure.create({ message: `the page needs JavaScript (${result.needs_javascript}): the run moves on to ${stepLabel(step.next)}`, type: 'JAVASCRIPT_REQUIRED', nonRetryable: true });
  }
  return undefined;
}

/** Counts the attempt by tier (and its block), and the move to the next step when it escalates. */
export function countAttempt(deps: ScrapeActivityDeps, input: ScrapeActivityInput, tier: ProxyTier | undefined, outcome: { code: string; blockedBy?: string; escalated?: string }): void {
  const { mode } = input.request;
  deps.metrics.scrapeTierAttempts.inc({ mode, tier: tier ?? 'direct' });
  if (outcome.blockedBy) deps.metrics.scrapeTierBlocks.inc({ mode, tier: tier ?? 'direct', vendor: outcome.blockedBy });
  if (outcome.escalated && input.step?.next) deps.metrics.scrapeEscalations.inc({ from: stepLabel({ engine: mode, tier }), to: stepLabel(input.step.next), reason: outcome.escalated });
}

/** The attempt's line in the run's `escalation` (auto runs only). */
export function escalationEntry(input: ScrapeActivityInput, attempt: number, tier: ProxyTier | undefined, outcome: { code: string; blockedBy?: string; escalated?: string }): EscalationEntry {
  return {
    attempt,
    engine: input.request.mode,
    proxy_tier: tier ?? 'direct',
    outcome: outcome.code,
    ...(outcome.escalated ? { escalated: outcome.escalated } : {}),
    ...(outcome.blockedBy ? { blocked_by: outcome.blockedBy } : {}),
  };
}

/** An `auto` step is not started when the account cannot pay its price (INSUFFICIENT_CREDIT, final): no work for nothing. */
export async function assertCanPay(deps: ScrapeActivityDeps, step: ScrapeStep): Promise<void> {
  const balance = await getBalance(deps.sql, step.charge.userId);
  if (balance < step.charge.amount) {
    throw ApplicationFailure.nonRetryable(`Not enough credit: ${step.charge.amount} needed, ${balance} remaining`, 'INSUFFICIENT_CREDIT');
  }
}

/**
 * An `auto` run's success with its one debit at the served step's price (scrape/run-attempts.ts
 * succeedCharged). Returns the balance after the debit, or null when the run had finished
 * (nothing charged, nothing recorded). A short balance fails INSUFFICIENT_CREDIT, final.
 */
export async function succeedCharged(deps: ScrapeActivityDeps, input: ScrapeActivityInput, stored: StoredResult, elapsedMs: number, cacheKey: string | null = null): Promise<{ balanceAfter: number } | null> {
  const step = input.step!;
  const debit: DebitInput = { ...step.charge, idempotencyKey: scrapeCreditKeys.debit(input.runId), runId: input.runId, mode: input.request.mode };
  const outcome = await deps.runs.succeedCharged(input.runId, stored, elapsedMs, debit, input.request.mode, cacheKey);
  if (outcome.charged) {
    deps.metrics.creditsDebited.inc({ mode: input.request.mode }, step.charge.amount);
    return { balanceAfter: outcome.balanceAfter! };
  }
  if (!outcome.live) return null;
  // Live but not charged: the balance was short (no debit of the run's key can exist while it is live).
  await assertCanPay(deps, step);
  throw new Error('the success of an auto run could not be recorded with its charge; trying again');
}
