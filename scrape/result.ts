/**
 * A scrape's output, declared once: every field a scrape produces beside its run's own (id, url,
 * status, mode, elapsed_ms, attempts, credits), in the order the API answers them. From this
 * declaration come the engines' return type (`ScrapeResult`, scrape/types.ts: the exact type an
 * engine gives each field), the stored result (scrape_run.result: activities/scrape/run-scrape.ts
 * copies every field), the run's body (api/scrape-run.ts `runBody`) and the response schema of
 * the OpenAPI document (api/schemas/responses.ts `runResultSchema`). A new output field is a line
 * here and its exact type in scrape/types.ts `ScrapeOutputTypes`; the compiler asks for the second.
 *
 * The schemas describe what is answered; nothing parses an engine's result at run time. Objects
 * are loose where a record carries stored JSON.
 */
import { z } from 'zod';

/** One selector's matches: `all: false` gives at most one (docs/scraping.md, "Selector results"). */
export const selectorResultSchema = z
  .looseObject({
    selector: z.string(),
    name: z.string().optional(),
    results: z.array(z.looseObject({ text: z.string(), html: z.string(), attributes: z.record(z.string(), z.string()) })),
  })
  .meta({ id: 'SelectorResult' });

export const scrapeOutputSchema = z.object({
  // One entry per selector, in the request's order (scrape/types.ts, SelectorResult).
  data: z.array(selectorResultSchema).optional(),
  // Without `formats`: the document; with `formats` naming html: the cleaned content (docs/scraping.md).
  html: z.string().optional(),
  rawHtml: z.string().optional(),
  markdown: z.string().optional(),
  text: z.string().optional(),
  links: z.array(z.object({ url: z.string(), text: z.string(), rel: z.string().nullable() })).optional(),
  metadata: z
    .looseObject({
      title: z.string().nullable(),
      description: z.string().nullable(),
      language: z.string().nullable(),
      canonical: z.string().nullable(),
      favicon: z.string().nullable(),
      published_time: z.string().nullable(),
      status: z.int(),
      content_type: z.string().nullable(),
      final_url: z.string(),
    })
    .optional(),
  // Stored and answered as a reference: the PNG itself is served at `url` to the run's owner.
  screenshot: z.object({ url: z.string(), width: z.int(), height: z.int(), bytes: z.int() }).optional(),
  headers: z.record(z.string(), z.unknown()),
  network: z.array(z.unknown()).optional(),
  // Browser `actions` (docs/scraping.md "Actions"): screenshots as references (served to the run's owner), page snapshots, script returns.
  actions: z
    .object({
      screenshots: z.array(z.object({ url: z.string(), width: z.int(), height: z.int(), bytes: z.int() })),
      scrapes: z.array(z.object({ url: z.string(), html: z.string() })),
      javascriptReturns: z.array(z.object({ type: z.string(), value: z.unknown() })),
    })
    .optional(),
});

/** The name of each output field. */
export type ScrapeOutputField = keyof typeof scrapeOutputSchema.shape;

/** Every output field, in the answer's order. */
export const SCRAPE_OUTPUT_FIELDS = Object.keys(scrapeOutputSchema.shape) as ScrapeOutputField[];
