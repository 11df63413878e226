/**
 * A search request (docs/search.md): the native `POST /search` body, its price, and the pure
 * translations of Firecrawl's fields (`tbs`, `location`, `country`) into what a backend is asked.
 */
import { z } from 'zod';
import { SEARCH_SOURCES, TIME_RANGES, type TimeRange } from './provider';

/** Credits a search costs, whatever its result count; each scraped result costs its scrape besides (GET /pricing). */
export const SEARCH_PRICE = 1;
export const SEARCH_LIMIT_MAX = 100;
export const SEARCH_LIMIT_DEFAULT = 5;
/** How long a search with scraping may wait at most (Firecrawl's own bound on `timeout`). */
export const SEARCH_TIMEOUT_MAX_MS = 300_000;

const domain = z
  .string()
  .max(253)
  .transform((value) => value.trim().toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/\/.*$/, '').replace(/^\*\./, '').replace(/\.+$/, ''))
  .refine((value) => /^[a-z0-9.-]+$/.test(value) && value.length > 0, { error: 'must be a host name (example.com)' });

export const searchRequestSchema = z
  .strictObject({
    query: z.string().trim().min(1, { error: 'must not be empty' }).max(2000),
    limit: z.int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT).meta({ description: 'Results per source at most' }),
    sources: z.array(z.enum(SEARCH_SOURCES)).min(1).max(3).default(['web']),
    time_range: z.enum(TIME_RANGES).optional(),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(-[A-Za-z]{2})?$/, { error: 'must be a language code (en) or a locale (en-US)' })
      .optional(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, { error: 'must be an ISO 3166 two-letter country code (us)' })
      .optional()
      .meta({ description: 'Results for this country: with `language`, the locale language-COUNTRY; alone, the country\'s main language' }),
    safe_search: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
    include_domains: z.array(domain).max(50).optional().meta({ description: 'Only results on these hosts or their subdomains' }),
    exclude_domains: z.array(domain).max(50).optional().meta({ description: 'No results on these hosts or their subdomains' }),
    timeout_ms: z.int().min(1000).max(SEARCH_TIMEOUT_MAX_MS).optional().meta({ description: 'When the answer is due, scraping included (default SYNC_TIMEOUT_MS)' }),
    scrape: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Scrape every web and news result with this scrape request (as POST /batch/scrape\'s `scrape`: without url, async, webhook), paid per page' }),
  });

export type SearchRequestInput = z.input<typeof searchRequestSchema>;
export type SearchRequest = z.output<typeof searchRequestSchema>;

/**
 * Google's `tbs` time filter (what Firecrawl takes) → SearXNG's `time_range`. SearXNG has no
 * hour: `qdr:h` asks for the day (a wider range, never a narrower one). Anything else (a custom
 * `cdr:` range, `sbd:`) cannot be asked of SearXNG: null, refused by the caller.
 */
export function timeRangeOfTbs(tbs: string): TimeRange | null {
  const match = /^qdr:([hdwmy])\d*$/.exec(tbs.trim());
  if (!match) return null;
  return ({ h: 'day', d: 'day', w: 'week', m: 'month', y: 'year' } as const)[match[1] as 'h' | 'd' | 'w' | 'm' | 'y'];
}

let regionNames: Map<string, string> | undefined;
/** English region name (lower case) → ISO code, from ICU's own names (Intl.DisplayNames). */
function regionByName(): Map<string, string> {
  if (regionNames) return regionNames;
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  regionNames = new Map();
  for (const a of letters) {
    for (const b of letters) {
      const name = names.of(`${a}${b}`);
      if (name) regionNames.set(name.toLowerCase(), `${a}${b}`);
    }
  }
  return regionNames;
}

/** Firecrawl's `location` ("Germany", "San Francisco,California,United States") → its country code, when its last part names one. */
export function countryOfLocation(location: string): string | undefined {
  const last = location.split(',').pop()?.trim().toLowerCase();
  return last ? regionByName().get(last) : undefined;
}

/**
 * The backend's `language` from a language and a country: `de-DE`; a country alone gives its
 * likely language (ICU's likely subtags: `und-BR` → `pt-BR`); neither: the backend's default.
 */
export function localeOf(language: string | undefined, country: string | undefined): string | undefined {
  if (!country) return language;
  const region = country.toUpperCase();
  if (language) return language.includes('-') ? language : `${language}-${region}`;
  try {
    const likely = new Intl.Locale('und', { region }).maximize().language;
    return likely && likely !== 'und' ? `${likely}-${region}` : undefined;
  } catch {
    return undefined;
  }
}
