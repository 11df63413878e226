/**
 * `GET /pricing`: the credit price list, read from the registries that charge (scrape/engines.ts
 * for a scrape and its extras, api/schemas/flow-nodes.ts for flow nodes, crawl/map-request.ts for
 * a map), so what it says is what the 402 check and the debit use (docs/scraping.md "Price list").
 */
import { z } from 'zod';
import { ACTION_SCREENSHOT_PRICE, CAPTURE_NETWORK_PRICE, DOCUMENT_PRICE, LLM_FORMAT_PRICE, SCRAPE_ENGINES, SCRAPE_MODES, SCREENSHOT_PRICE, type ScrapeMode } from '../../scrape/engines';
import { MAP_PRICE } from '../../crawl/map-request';
import { SEARCH_PRICE } from '../../search/request';
import { DEFAULT_DOCUMENT_MAX_PAGES, MAX_DOCUMENT_PAGES } from '../../scrape/request';
import { FLOW_NODE_PRICING } from '../schemas/flow-nodes';
import { type Route, reply, route } from '../route-table';
import { UPLOAD_MAX_BYTES, UPLOAD_PRICE } from '../document-upload';
import { PROXY_TIER_PRICES } from '../../scrape/proxy-tiers';
import { tiersServing } from '../../platform/proxy-endpoints';
import type { Config } from '../../platform/config';

const priceListSchema = z.object({
  unit: z.literal('credit'),
  scrape: z.object({
    /** Credits per scrape of each mode. */
    modes: z.record(z.string(), z.int()),
    /** Added to the mode's price when the request asks for it. */
    extras: z.object({ capture_network: z.int(), screenshot: z.int(), action_screenshot: z.int(), llm_format: z.int() }),
    /** Browser `actions`: each `screenshot` action costs `extras.action_screenshot`; the other actions nothing more. */
    actions: z.string(),
    /** Formats other than the screenshot and the model formats (extras.llm_format each) cost nothing more. */
    formats: z.int(),
    /** How the model formats (json with a schema, summary) are priced. */
    llm: z.string(),
  }),
  /** Proxy tiers (docs/scraping.md "Escalation"): what each adds to a scrape's price, and how an `auto` scrape is charged. */
  proxy_tiers: z.object({ tiers: z.record(z.string(), z.int()), configured: z.array(z.string()), escalation: z.string() }),
  /** A PDF or DOCX target (docs/scraping.md "Documents (PDF, DOCX)"): priced per document. */
  documents: z.object({ per_document: z.int(), per_page: z.int(), rule: z.string(), upload: z.int(), upload_rule: z.string() }),
  flow_nodes: z.record(z.string(), z.string()),
  /** Multi-page jobs (docs/crawl.md): a map's price; a crawl's or a batch's pages each cost their scrape's price. */
  jobs: z.object({ map: z.int(), crawl: z.string(), batch_scrape: z.string(), extract: z.string(), crawl_params_preview: z.int() }),
  /** A web search (docs/search.md): a fixed price per call; each scraped result its scrape's price. */
  search: z.object({ per_search: z.int(), scraped_result: z.string(), refunds: z.string() }),
  refunds: z.string(),
  /** The results cache (docs/scraping.md "Results cache"): what a hit costs. */
  cache: z.object({ hit: z.int(), rule: z.string() }),
});

export function priceList(configuredTiers: readonly string[] = []): z.infer<typeof priceListSchema> {
  return {
    unit: 'credit',
    scrape: {
      modes: Object.fromEntries(SCRAPE_MODES.map((mode: ScrapeMode) => [mode, SCRAPE_ENGINES[mode].price])),
      extras: { capture_network: CAPTURE_NETWORK_PRICE, screenshot: SCREENSHOT_PRICE, action_screenshot: ACTION_SCREENSHOT_PRICE, llm_format: LLM_FORMAT_PRICE },
      actions: `each screenshot action adds ${ACTION_SCREENSHOT_PRICE} (as a screenshot format does); every other action costs nothing more`,
      formats: 0,
      llm: 'each model format (json with a schema, summary) adds extras.llm_format, whatever its tokens (recorded with the run as llm_usage); a json format with a css schema costs nothing more; refunded when the model fails',
    },
    proxy_tiers: {
      tiers: { ...PROXY_TIER_PRICES },
      configured: [...configuredTiers],
      escalation:
        'mode "auto" (the Firecrawl routes\' default) pays once, when the page is served, the price of the engine and tier that served it (mode price + tier price + extras); blocked steps and pages that needed JavaScript cost nothing; a run no step served costs nothing',
    },
    documents: {
      per_document: DOCUMENT_PRICE,
      per_page: 0,
      rule: `a PDF or DOCX target costs its scrape's price (mode and extras above) plus ${DOCUMENT_PRICE}, whatever its page count; at most document.max_pages pages are read (default ${DEFAULT_DOCUMENT_MAX_PAGES}, at most ${MAX_DOCUMENT_PAGES}); an unreadable document is refunded`,
      upload: UPLOAD_PRICE,
      upload_rule: `an uploaded PDF or DOCX (POST /documents, Firecrawl's POST /v2/parse) costs ${UPLOAD_PRICE}, what a document target in http mode costs; at most ${UPLOAD_MAX_BYTES} bytes; refunded when it cannot be read`,
    },
    flow_nodes: Object.fromEntries(Object.entries(FLOW_NODE_PRICING).map(([type, pricing]) => [type, pricing.spends])),
    jobs: {
      map: MAP_PRICE,
      crawl: "each page fetched costs its scrape request's price (mode and extras above); skipped pages cost nothing",
      batch_scrape: "each URL costs its scrape request's price (mode and extras above)",
      extract: `Firecrawl's extract (docs/firecrawl.md "Extract"): each page scraped costs its scrape's price (its batch or crawl job's), plus extras.llm_format once for the model step, refunded when the model fails; nothing when refused (no model, no URL, too little credit)`,
      crawl_params_preview: LLM_FORMAT_PRICE,
    },
    search: {
      per_search: SEARCH_PRICE,
      scraped_result: "with scrape options, each web or news result scraped costs its scrape request's price (mode and extras above), as a batch_scrape page; image results are not scraped",
      refunds: 'a search whose backend fails (SEARCH_UNAVAILABLE) is refunded in full; a refused search (SEARCH_NOT_CONFIGURED, a bad request, 402, 429) charges nothing; a result whose scrape fails is refunded as any page',
    },
    refunds: 'a scrape whose every attempt failed is refunded in full; a 402 or 429 answer charges nothing',
    cache: {
      hit: 0,
      rule: 'a scrape, crawl page or batch page answered from the results cache (max_age, Firecrawl maxAge) costs nothing: the account already paid for the page; it is recorded as a run with status cached',
    },
  };
}

export function pricingRouteTable(config: Pick<Config, 'PROXY_TIERS'>): Route[] {
  return [
    route({
      method: 'get',
      path: '/pricing',
      credential: 'none',
      tag: 'scraping',
      summary: 'The credit price list: per scrape mode, its extras, what flow nodes spend, and the multi-page jobs',
      responses: { 200: priceListSchema },
      errors: [],
      handler: () => reply(200, priceList(tiersServing(config.PROXY_TIERS))),
    }),
  ];
}
