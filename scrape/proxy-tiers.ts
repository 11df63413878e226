/**
 * Proxy tiers and escalation (docs/scraping.md "Escalation"): the tiers an operator may configure
 * pools for (PROXY_TIERS), what each adds to a scrape's price, and the ladder of steps
 * (engine, tier) an `auto` scrape climbs when a step is blocked or the page needs JavaScript.
 *
 * Pure data and functions, type-only imports: workflows read the ladder inside Temporal's sandbox.
 */
import { PROXY_TIER_NAMES, type ProxyTierName } from '../platform/proxy-endpoints';

/** The tiers, cheapest first: escalation climbs them in this order (the configuration parses PROXY_TIERS by them). */
export const PROXY_TIERS = PROXY_TIER_NAMES;
export type ProxyTier = ProxyTierName;

/**
 * What a scrape through a tier adds to its price: `basic` (datacenter addresses, PROXY_URLS) is
 * in every engine's price; `stealth` (residential addresses, which providers bill by the GB)
 * adds this many credits per scrape.
 */
export const PROXY_TIER_PRICES: Readonly<Record<ProxyTier, number>> = { basic: 0, stealth: 4 };

/** What a request may ask for: a tier, or `auto` (the cheapest configured, escalating in `auto` mode). */
export const PROXY_TIER_CHOICES = [...PROXY_TIERS, 'auto'] as const;
export type ProxyTierChoice = (typeof PROXY_TIER_CHOICES)[number];

export { DEFAULT_COUNTRY } from '../platform/proxy-endpoints';

/** An engine's name (scrape/engines.ts SCRAPE_MODES; not imported: engines.ts prices tiers from this file). */
type ScrapeMode = 'http' | 'browser';

/** Why a step gave way to the next one. */
export type EscalationReason = 'blocked' | 'app_shell' | 'noscript';

/**
 * One step of an `auto` scrape: an engine and the tier its attempts go through (absent: direct,
 * no tier has a pool), with the price the run is charged when this step serves the page.
 */
export interface EscalationStep {
  engine: ScrapeMode;
  tier?: ProxyTier;
  price: number;
}

/** What the ladder is built from: the request's needs and the tiers the operator configured. */
export interface LadderInput {
  /** The engine the request must start with (`browser` when it asks for a browser-only field). */
  start: ScrapeMode;
  /** The request needs http (POST): it never moves to the browser. */
  httpOnly: boolean;
  /** Tiers with a pool for the request's country, cheapest first (empty: every step goes direct). */
  tiers: readonly ProxyTier[];
  /** A tier the request pinned (`proxy_tier`, Firecrawl's `proxy: "basic" | "stealth"`): no tier escalation. */
  pinned?: ProxyTier;
  /** The request's price on a given engine and tier (scrape/engines.ts scrapeCost). */
  price: (engine: ScrapeMode, tier: ProxyTier | undefined) => number;
}

/**
 * The steps, in order: the starting engine on the first tier; then the browser on it (unless
 * the request is http only, or already started there); then the engine reached on each higher
 * tier. E.g. with basic and stealth pools: http@basic → browser@basic → browser@stealth.
 */
export function escalationLadder(input: LadderInput): EscalationStep[] {
  const tiers: ReadonlyArray<ProxyTier | undefined> = input.pinned ? [input.pinned] : input.tiers.length ? input.tiers : [undefined];
  const engines: ScrapeMode[] = input.start === 'http' && !input.httpOnly ? ['http', 'browser'] : [input.start];
  const steps: EscalationStep[] = engines.map((engine) => ({ engine, ...(tiers[0] ? { tier: tiers[0] } : {}), price: input.price(engine, tiers[0]) }));
  const last = engines[engines.length - 1]!;
  for (const tier of tiers.slice(1)) steps.push({ engine: last, ...(tier ? { tier } : {}), price: input.price(last, tier) });
  return steps;
}

/** A step as metrics and records name it: `http@basic`, `browser@direct`. */
export function stepLabel(step: Pick<EscalationStep, 'engine' | 'tier'>): string {
  return `${step.engine}@${step.tier ?? 'direct'}`;
}

/** The escalation reason of a step's failure (its error code and message), or undefined when the failure is not one to escalate on. */
export function escalationReasonOf(code: string, message?: string): EscalationReason | undefined {
  if (code === 'TARGET_BLOCKED') return 'blocked';
  if (code === 'JAVASCRIPT_REQUIRED') return message?.includes('noscript') ? 'noscript' : 'app_shell';
  return undefined;
}
