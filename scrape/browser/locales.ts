/**
 * Where a browser identity says it is (identity.ts): the time zone and languages of a person in
 * the proxy's country (docs/scraping.md, "How we look to a site"). A page compares its IP's
 * country with `Intl`'s time zone and `navigator.languages`; a German address with a UTC clock and
 * English-only languages is a proxy.
 *
 * Sources: the languages are CLDR's likely language for the territory (Unicode CLDR
 * `likelySubtags`, e.g. `und_DE` → `de_Latn_DE`), followed by English as a browser installed in
 * that language and used on the web usually also lists it; the time zones are the country's
 * entries of the IANA time zone database's `zone1970.tab` (the most populous ones, for a country
 * with several: a seed picks one, so two sessions of one country need not share a clock).
 *
 * A country not in the table keeps the default identity's zone and languages (US English):
 * better an ordinary American browser behind a foreign address than a guess.
 */

export interface CountryLocale {
  /** BCP 47 tags, most preferred first: `navigator.languages` and `Accept-Language`. */
  languages: readonly string[];
  /** IANA zones; one is chosen per identity. */
  timezones: readonly string[];
}

/** Without a country: a US English browser in one of the four main US time zones. */
export const DEFAULT_LOCALE: CountryLocale = {
  languages: ['en-US', 'en'],
  timezones: ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'],
};

/** ISO 3166-1 alpha-2 (lower case) → locale. */
export const COUNTRY_LOCALES: Readonly<Record<string, CountryLocale>> = {
  us: DEFAULT_LOCALE,
  ca: { languages: ['en-CA', 'en', 'fr-CA'], timezones: ['America/Toronto', 'America/Vancouver', 'America/Edmonton'] },
  mx: { languages: ['es-MX', 'es', 'en'], timezones: ['America/Mexico_City'] },
  br: { languages: ['pt-BR', 'pt', 'en'], timezones: ['America/Sao_Paulo'] },
  ar: { languages: ['es-AR', 'es', 'en'], timezones: ['America/Argentina/Buenos_Aires'] },
  gb: { languages: ['en-GB', 'en'], timezones: ['Europe/London'] },
  ie: { languages: ['en-IE', 'en'], timezones: ['Europe/Dublin'] },
  de: { languages: ['de-DE', 'de', 'en-US', 'en'], timezones: ['Europe/Berlin'] },
  at: { languages: ['de-AT', 'de', 'en'], timezones: ['Europe/Vienna'] },
  ch: { languages: ['de-CH', 'de', 'en'], timezones: ['Europe/Zurich'] },
  fr: { languages: ['fr-FR', 'fr', 'en-US', 'en'], timezones: ['Europe/Paris'] },
  be: { languages: ['nl-BE', 'nl', 'fr', 'en'], timezones: ['Europe/Brussels'] },
  nl: { languages: ['nl-NL', 'nl', 'en'], timezones: ['Europe/Amsterdam'] },
  es: { languages: ['es-ES', 'es', 'en'], timezones: ['Europe/Madrid'] },
  pt: { languages: ['pt-PT', 'pt', 'en'], timezones: ['Europe/Lisbon'] },
  it: { languages: ['it-IT', 'it', 'en'], timezones: ['Europe/Rome'] },
  pl: { languages: ['pl-PL', 'pl', 'en'], timezones: ['Europe/Warsaw'] },
  se: { languages: ['sv-SE', 'sv', 'en'], timezones: ['Europe/Stockholm'] },
  no: { languages: ['nb-NO', 'nb', 'en'], timezones: ['Europe/Oslo'] },
  dk: { languages: ['da-DK', 'da', 'en'], timezones: ['Europe/Copenhagen'] },
  fi: { languages: ['fi-FI', 'fi', 'en'], timezones: ['Europe/Helsinki'] },
  cz: { languages: ['cs-CZ', 'cs', 'en'], timezones: ['Europe/Prague'] },
  ro: { languages: ['ro-RO', 'ro', 'en'], timezones: ['Europe/Bucharest'] },
  gr: { languages: ['el-GR', 'el', 'en'], timezones: ['Europe/Athens'] },
  tr: { languages: ['tr-TR', 'tr', 'en'], timezones: ['Europe/Istanbul'] },
  ua: { languages: ['uk-UA', 'uk', 'en'], timezones: ['Europe/Kyiv'] },
  ru: { languages: ['ru-RU', 'ru', 'en'], timezones: ['Europe/Moscow'] },
  il: { languages: ['he-IL', 'he', 'en'], timezones: ['Asia/Jerusalem'] },
  ae: { languages: ['ar-AE', 'ar', 'en'], timezones: ['Asia/Dubai'] },
  in: { languages: ['en-IN', 'en', 'hi'], timezones: ['Asia/Kolkata'] },
  sg: { languages: ['en-SG', 'en'], timezones: ['Asia/Singapore'] },
  jp: { languages: ['ja-JP', 'ja', 'en'], timezones: ['Asia/Tokyo'] },
  kr: { languages: ['ko-KR', 'ko', 'en'], timezones: ['Asia/Seoul'] },
  cn: { languages: ['zh-CN', 'zh', 'en'], timezones: ['Asia/Shanghai'] },
  hk: { languages: ['zh-HK', 'zh', 'en'], timezones: ['Asia/Hong_Kong'] },
  tw: { languages: ['zh-TW', 'zh', 'en'], timezones: ['Asia/Taipei'] },
  id: { languages: ['id-ID', 'id', 'en'], timezones: ['Asia/Jakarta'] },
  th: { languages: ['th-TH', 'th', 'en'], timezones: ['Asia/Bangkok'] },
  vn: { languages: ['vi-VN', 'vi', 'en'], timezones: ['Asia/Ho_Chi_Minh'] },
  ph: { languages: ['en-PH', 'en', 'fil'], timezones: ['Asia/Manila'] },
  au: { languages: ['en-AU', 'en'], timezones: ['Australia/Sydney', 'Australia/Melbourne', 'Australia/Brisbane', 'Australia/Perth'] },
  nz: { languages: ['en-NZ', 'en'], timezones: ['Pacific/Auckland'] },
  za: { languages: ['en-ZA', 'en'], timezones: ['Africa/Johannesburg'] },
  ng: { languages: ['en-NG', 'en'], timezones: ['Africa/Lagos'] },
  eg: { languages: ['ar-EG', 'ar', 'en'], timezones: ['Africa/Cairo'] },
};

/** The locale of a country (any case), or the default one for none or one not in the table. */
export function countryLocale(country: string | undefined): CountryLocale {
  return (country && COUNTRY_LOCALES[country.toLowerCase()]) || DEFAULT_LOCALE;
}

/**
 * The languages an `Accept-Language` value names, in order, without q-values (`de-DE,de;q=0.9` →
 * `['de-DE', 'de']`); empty when it names none. Firecrawl's `location.languages` arrives so.
 */
export function languagesOf(acceptLanguage: string): string[] {
  return acceptLanguage
    .split(',')
    .map((part) => part.split(';')[0]!.trim())
    .filter((tag) => /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(tag));
}
