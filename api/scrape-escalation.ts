/**
 * A scrape request's proxy plan (docs/scraping.md "Escalation"), decided by the API from the
 * tiers it has configured (PROXY_TIERS, with PROXY_URLS as basic.default): a `country` or a
 * pinned `proxy_tier` no pool serves is a 400 naming it; an `auto` request gets its ladder of
 * steps (engine, tier, price), carried by its job to the workflow; a request naming a country
 * without a tier is priced and sent on the cheapest tier serving that country.
 */
import type { Config } from '../platform/config';
import { AppError } from '../platform/errors';
import { DEFAULT_COUNTRY, tiersServing } from '../platform/proxy-endpoints';
import { scrapeCost } from '../scrape/engines';
import { type EscalationStep, type ProxyTier, escalationLadder } from '../scrape/proxy-tiers';
import type { ScrapeRequest } from '../scrape/request';

export interface ProxyPlan {
  request: ScrapeRequest;
  /** What the API checks the balance against: the price of the first step. */
  cost: number;
  /** `auto` requests only. */
  escalation?: EscalationStep[];
}

/** The countries a tier has pools for, for the 400's message. */
function countriesOf(config: Pick<Config, 'PROXY_TIERS'>): string[] {
  const all = new Set<string>();
  for (const byCountry of Object.values(config.PROXY_TIERS)) for (const country of Object.keys(byCountry ?? {})) if (country !== DEFAULT_COUNTRY) all.add(country);
  return [...all].sort();
}

export function proxyPlan(config: Pick<Config, 'PROXY_TIERS'>, request: ScrapeRequest): ProxyPlan {
  const direct = request.proxy === 'none';
  const tiers: ProxyTier[] = direct ? [] : tiersServing(config.PROXY_TIERS, request.country);
  if (request.country && tiers.length === 0) {
    const countries = countriesOf(config);
    throw new AppError('BAD_REQUEST', `country "${request.country}" has no proxy: ${countries.length ? `the countries with one are ${countries.join(', ')}` : 'no proxy pool names a country (PROXY_TIERS)'}`);
  }
  // `basic` with no proxy configured at all (and no country) is the cheapest way there is: direct.
  const basicMeansDirect = request.proxy_tier === 'basic' && tiers.length === 0 && !request.country;
  const pinned = request.proxy_tier && request.proxy_tier !== 'auto' && !basicMeansDirect ? request.proxy_tier : undefined;
  if (pinned && !tiers.includes(pinned)) {
    throw new AppError('BAD_REQUEST', `proxy_tier "${pinned}" has no proxy pool${request.country ? ` for country "${request.country}"` : ''}: ${tiers.length ? `the tiers configured are ${tiers.join(', ')}` : 'no proxy tier is configured (PROXY_TIERS, PROXY_URLS)'}`);
  }
  if (!request.escalate) {
    // A country without a tier: the cheapest tier serving it, priced as such.
    const tiered = !pinned && request.country ? { ...request, proxy_tier: tiers[0]! } : request;
    return { request: tiered, cost: scrapeCost(tiered) };
  }
  const escalation = escalationLadder({
    start: request.mode,
    httpOnly: request.method === 'POST',
    tiers,
    ...(pinned ? { pinned } : {}),
    price: (engine, tier) => scrapeCost({ ...request, mode: engine, ...(tier ? { proxy_tier: tier } : {}) }),
  });
  return { request, cost: escalation[0]!.price, escalation };
}
