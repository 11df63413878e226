/**
 * Block pages (docs/scraping.md "Block pages"): whether a target's answer is a bot-protection
 * interstitial, a block page or a rate limit instead of the page asked for. Every attempt's
 * answer is classified before it is recorded (activities/scrape/run-scrape.ts); a blocked attempt
 * fails with TARGET_BLOCKED and names the vendor (`blocked_by`).
 *
 * One table, BLOCK_RULES, read in order (the first rule that matches names the vendor). A rule
 * holds when ALL its parts hold: the status is one of `statuses`, the `header` test passes, the
 * body is at most `maxBodyChars` long, and the body carries every `all` marker and, if `any` is
 * given, at least one of them. To add a vendor: a line in BlockVendor, one or more rules with a
 * comment saying what they match, and a real captured page under test/fixtures/block-pages/
 * (blocks.test.ts checks each fixture against the table).
 *
 * Cost: the status decides first (an answer whose status no rule lists costs a few comparisons),
 * then the headers; a body is read only when a rule's status and headers fit, only when it is
 * short (interstitials are small: no rule reads a body of more than MAX_SCANNED_CHARS), and
 * with plain substring searches (bench/blocks.ts measures it against a no-op).
 *
 * Client-safe (no Node built-ins), so a workflow or the dashboard may read the vendor names.
 */

export const BLOCK_VENDORS = ['cloudflare', 'akamai', 'datadome', 'perimeterx', 'imperva', 'aws_waf', 'sucuri', 'captcha', 'rate_limit'] as const;
export type BlockVendor = (typeof BLOCK_VENDORS)[number];

/** What the classifier reads of an answer: its status, its headers (lower-case names) and its body as text. */
export interface TargetAnswer {
  status: number;
  headers: Readonly<Record<string, string | undefined>>;
  body: string;
}

export interface BlockRule {
  vendor: BlockVendor;
  /** What the rule matches, said once (docs and test names quote it). */
  matches: string;
  statuses: readonly number[] | 'error' | 'any';
  header?: (headers: TargetAnswer['headers']) => boolean;
  /** The body is read only up to here; a longer body fails the rule (no interstitial is that long). */
  maxBodyChars?: number;
  /** Markers the body must all carry (case-sensitive substrings of the raw document). */
  all?: readonly string[];
  /** Markers of which the body must carry at least one. */
  any?: readonly string[];
  /** A last test on the body (only after the markers matched), e.g. "little else than a captcha". */
  body?: (body: string) => boolean;
}

/** The most of a body any rule reads. */
export const MAX_SCANNED_CHARS = 64 * 1024;

/** A captcha widget's element (reCAPTCHA, hCaptcha, Turnstile all mount on one with data-sitekey), not merely their script: single-page apps load the script on every page. */
const CAPTCHA_WIDGETS = ['data-sitekey=', 'class="g-recaptcha"', 'class="h-captcha"', 'class="cf-turnstile"'];

export const BLOCK_RULES: readonly BlockRule[] = [
  // Cloudflare's challenge pages (managed, JS, interactive) carry `cf-mitigated: challenge`
  // (Cloudflare documents it for telling a challenge from the origin's answer), at 403 or 503.
  { vendor: 'cloudflare', matches: 'a Cloudflare challenge: cf-mitigated: challenge', statuses: [403, 429, 503], header: (h) => h['cf-mitigated'] === 'challenge' },
  // The same pages and the older "Attention Required!" block/captcha page by their markup: the
  // challenge options object, the challenge's orchestrate script, the captcha form's kind field.
  // Not /cdn-cgi/challenge-platform/ alone: Cloudflare injects its bot-detection script
  // (…/scripts/jsd/main.js) into ordinary pages, error pages included.
  {
    vendor: 'cloudflare',
    matches: 'a Cloudflare challenge or block page: _cf_chl_opt, the challenge\'s /orchestrate/ script, cf_captcha_kind or its "Attention Required! | Cloudflare" title, at 403/429/503',
    statuses: [403, 429, 503],
    maxBodyChars: MAX_SCANNED_CHARS,
    any: ['window._cf_chl_opt', '/orchestrate/chl_page/', '/orchestrate/jsch/', '/orchestrate/captcha/', '/orchestrate/managed/', 'name="cf_captcha_kind"', '<title>Attention Required! | Cloudflare</title>'],
  },
  // Akamai's edge denial: "Access Denied" and its entity-encoded "Reference #18.…" line, a
  // page of a few hundred bytes at 403.
  { vendor: 'akamai', matches: 'Akamai "Access Denied … Reference #" at 403', statuses: [403], maxBodyChars: 4096, all: ['Access Denied', 'Reference&#32;&#35;'] },
  // DataDome's block/captcha page: the `dd` object its script reads and DataDome's captcha hosts.
  {
    vendor: 'datadome',
    matches: "DataDome's captcha page: var dd={…} and captcha-delivery.com or datado.me, at 403",
    statuses: [403, 405, 429],
    maxBodyChars: 16 * 1024,
    all: ['var dd={'],
    any: ['captcha-delivery.com', 'datado.me'],
  },
  // PerimeterX (HUMAN)'s block page: the captcha's mount point and the app id its script needs.
  {
    vendor: 'perimeterx',
    matches: 'a PerimeterX/HUMAN block page: id="px-captcha" or window._pxAppId, at 403',
    statuses: [403, 429],
    maxBodyChars: MAX_SCANNED_CHARS,
    any: ['id="px-captcha"', 'window._pxAppId'],
  },
  // Imperva (Incapsula)'s interstitial: an iframe on /_Incapsula_Resource with an incident id,
  // served at 200 as often as at 403. Only small pages: a protected page that merely loads
  // Incapsula's script (…?SWJIYLWA=…) is not one.
  {
    vendor: 'imperva',
    matches: 'an Imperva/Incapsula interstitial: /_Incapsula_Resource iframe with "Incapsula incident ID" (or its SWUDNSAI/CWUDNSAI challenge), any status, under 8 KiB',
    statuses: 'any',
    maxBodyChars: 8 * 1024,
    all: ['/_Incapsula_Resource?'],
    any: ['Incapsula incident ID', 'SWUDNSAI=', 'CWUDNSAI='],
  },
  // AWS WAF answers a challenge with 202 and a captcha with 405, each with x-amzn-waf-action
  // (AWS WAF developer guide, "CAPTCHA and Challenge actions").
  {
    vendor: 'aws_waf',
    matches: 'AWS WAF: x-amzn-waf-action: challenge (202) or captcha (405)',
    statuses: [202, 403, 405],
    header: (h) => h['x-amzn-waf-action'] === 'challenge' || h['x-amzn-waf-action'] === 'captcha',
  },
  // Sucuri's firewall names its block in a header…
  { vendor: 'sucuri', matches: 'Sucuri: an x-sucuri-block header', statuses: 'error', header: (h) => Boolean(h['x-sucuri-block']) },
  // …and on its page (the title and the block stylesheet).
  {
    vendor: 'sucuri',
    matches: 'Sucuri\'s "Access Denied - Sucuri Website Firewall" page, at 4xx/5xx',
    statuses: 'error',
    maxBodyChars: 16 * 1024,
    any: ['Sucuri WebSite Firewall - Access Denied', 'cdn.sucuri.net/sucuri-firewall-block.css'],
  },
  // A page that is little else than a captcha widget (reCAPTCHA, hCaptcha, Turnstile) answered
  // 403, 429 or 503: Google's "unusual traffic" page, a WAF's captcha. A captcha in a comment
  // form of a real page is not one (that page answers 200 and has text of its own), nor is a
  // sign-in page with a captcha (it asks for a password; some answer 401).
  {
    vendor: 'captcha',
    matches: 'a captcha-only page: a reCAPTCHA/hCaptcha/Turnstile widget element, under 300 characters of text and no password field, at 403/429/503',
    statuses: [403, 429, 503],
    maxBodyChars: 32 * 1024,
    any: CAPTCHA_WIDGETS,
    body: (body) => !/type=["']?password/i.test(body) && visibleTextLength(body) < 300,
  },
  // Any other 429: the target's rate limit (last, so a vendor's 429 page names its vendor).
  { vendor: 'rate_limit', matches: 'HTTP 429 Too Many Requests', statuses: [429] },
];

export interface BlockVerdict {
  vendor: BlockVendor;
  rule: BlockRule;
}

/** The first rule of BLOCK_RULES the answer matches, or null for an answer that is not a block. */
export function classifyBlock(answer: TargetAnswer): BlockVerdict | null {
  for (const rule of BLOCK_RULES) if (matchesRule(rule, answer)) return { vendor: rule.vendor, rule };
  return null;
}

function statusFits(statuses: BlockRule['statuses'], status: number): boolean {
  if (statuses === 'any') return true;
  if (statuses === 'error') return status >= 400;
  return statuses.includes(status);
}

function matchesRule(rule: BlockRule, answer: TargetAnswer): boolean {
  if (!statusFits(rule.statuses, answer.status)) return false;
  if (rule.header && !rule.header(answer.headers)) return false;
  if (!rule.all && !rule.any && !rule.body) return true;
  const { body } = answer;
  if (body.length > Math.min(rule.maxBodyChars ?? MAX_SCANNED_CHARS, MAX_SCANNED_CHARS)) return false;
  if (rule.all && !rule.all.every((marker) => body.includes(marker))) return false;
  if (rule.any && !rule.any.some((marker) => body.includes(marker))) return false;
  return rule.body ? rule.body(body) : true;
}

/** Characters of text outside tags, scripts, styles and comments (whitespace collapsed): cheap, bounded by the rule's maxBodyChars. */
export function visibleTextLength(html: string): number {
  return html
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[#a-z0-9]+;/gi, 'x')
    .replace(/\s+/g, ' ')
    .trim().length;
}

/**
 * The message of a blocked attempt. It carries the vendor in a fixed form (`blocked_by <vendor>`)
 * because a failure's message is what the workflows hand on to the run's record (describeFailure):
 * blockedByOf reads it back there, so no workflow command changes to carry one more field.
 */
export function blockedMessage(vendor: BlockVendor, status: number): string {
  return `the target answered a block page, not the page (blocked_by ${vendor}, HTTP ${status})`;
}

/** The vendor a TARGET_BLOCKED message names (blockedMessage), if any. */
export function blockedByOf(message: string | undefined): BlockVendor | undefined {
  const named = message ? /\(blocked_by ([a-z_]+),/.exec(message)?.[1] : undefined;
  return (BLOCK_VENDORS as readonly string[]).includes(named ?? '') ? (named as BlockVendor) : undefined;
}
