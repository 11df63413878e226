/**
 * `GET /pricing`: the credit price list, read from the registries that charge (scrape/engines.ts
 * for a scrape and its extras, api/schemas/flow-nodes.ts for flow nodes, crawl/map-request.ts for
 * a map), so what it says is what the 402 check and the debit use (docs/scraping.md "Price list").
 */
import { z } from 'zod';
import { ACTION_SCREENSHOT_PRICE, CAPTURE_NETWORK_PRICE, SCRAPE_ENGINES, SCRAPE_MODES, SCREENSHOT_PRICE, type ScrapeMode } from '../../scrape/engines';
import { MAP_PRICE } from '../../crawl/map-request';
import { FLOW_NODE_PRICING } from '../schemas/flow-nodes';
import { type Route, reply, route } from '../route-table';

const priceListSchema = z.object({
  unit: z.literal('credit'),
  scrape: z.object({
    /** Credits per scrape of each mode. */
    modes: z.record(z.string(), z.int()),
    /** Added to the mode's price when the request asks for it. */
    extras: z.object({ capture_network: z.int(), screenshot: z.int(), action_screenshot: z.int() }),
    /** Browser `actions`: each `screenshot` action costs `extras.action_screenshot`; the other actions nothing more. */
    actions: z.string(),
    /** Formats other than the screenshot cost nothing more. */
    formats: z.int(),
  }),
  flow_nodes: z.record(z.string(), z.string()),
  /** Multi-page jobs (docs/crawl.md): a map's price; a crawl's or a batch's pages each cost their scrape's price. */
  jobs: z.object({ map: z.int(), crawl: z.string(), batch_scrape: z.string() }),
  refunds: z.string(),
});

export function priceList(): z.infer<typeof priceListSchema> {
  return {
    unit: 'credit',
    scrape: {
      modes: Object.fromEntries(SCRAPE_MODES.map((mode: ScrapeMode) => [mode, SCRAPE_ENGINES[mode].price])),
      extras: { capture_network: CAPTURE_NETWORK_PRICE, screenshot: SCREENSHOT_PRICE, action_screenshot: ACTION_SCREENSHOT_PRICE },
      actions: `each screenshot action adds ${ACTION_SCREENSHOT_PRICE} (as a screenshot format does); every other action costs nothing more`,
      formats: 0,
    },
    flow_nodes: Object.fromEntries(Object.entries(FLOW_NODE_PRICING).map(([type, pricing]) => [type, pricing.spends])),
    jobs: {
      map: MAP_PRICE,
      crawl: "each page fetched costs its scrape request's price (mode and extras above); skipped pages cost nothing",
      batch_scrape: "each URL costs its scrape request's price (mode and extras above)",
    },
    refunds: 'a scrape whose every attempt failed is refunded in full; a 402 or 429 answer charges nothing',
  };
}

export function pricingRouteTable(): Route[] {
  return [
    route({
      method: 'get',
      path: '/pricing',
      credential: 'none',
      tag: 'scraping',
      summary: 'The credit price list: per scrape mode, its extras, what flow nodes spend, and the multi-page jobs',
      responses: { 200: priceListSchema },
      errors: [],
      handler: () => reply(200, priceList()),
    }),
  ];
}
