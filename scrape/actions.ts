/**
 * `actions` of a browser scrape (docs/scraping.md "Actions"): what the page is made to do after it
 * loaded and before it is read, in order, in the vocabulary Firecrawl's users write (the same
 * objects come through the Firecrawl-compatible API). The schema and the rules live here; the
 * browser runs them (scrape/browser/actions.ts).
 *
 * Client-safe: zod and constants only.
 */
import { z } from 'zod';

/** At most this many actions per request. */
export const MAX_ACTIONS = 50;
/** The longest `write` text and `executeJavascript` script. */
export const MAX_ACTION_TEXT = 10_000;
export const MAX_ACTION_SCRIPT = 100_000;
/** The largest `executeJavascript` return value, as JSON (bytes of UTF-8). */
export const MAX_SCRIPT_RETURN_BYTES = 64 * 1024;

const css = z.string().trim().min(1, { error: 'must be a non-empty CSS selector' }).max(2000);

const integerError = (issue: { code?: string }) =>
  issue.code === 'invalid_type' || issue.code === 'invalid_format' ? 'must be an integer' : undefined;

const waitAction = z
  .strictObject({
    type: z.literal('wait'),
    milliseconds: z.int({ error: integerError }).min(1).max(60_000).optional(),
    selector: css.optional(),
  })
  .refine((a) => (a.milliseconds === undefined) !== (a.selector === undefined), { error: 'must give either milliseconds or selector (one of them)' });

const clickAction = z.strictObject({ type: z.literal('click'), selector: css, all: z.boolean().default(false) });
const writeAction = z.strictObject({ type: z.literal('write'), text: z.string().max(MAX_ACTION_TEXT) });
const pressAction = z.strictObject({ type: z.literal('press'), key: z.string().trim().min(1).max(100) });
const scrollAction = z.strictObject({ type: z.literal('scroll'), direction: z.enum(['up', 'down']).default('down'), selector: css.optional() });
const screenshotAction = z.strictObject({ type: z.literal('screenshot'), fullPage: z.boolean().default(false) });
const scrapeAction = z.strictObject({ type: z.literal('scrape') });
const executeJavascriptAction = z.strictObject({ type: z.literal('executeJavascript'), script: z.string().min(1).max(MAX_ACTION_SCRIPT) });

/** The action types, in the order docs/scraping.md lists them. */
export const ACTION_TYPES = ['wait', 'click', 'write', 'press', 'scroll', 'screenshot', 'scrape', 'executeJavascript'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const actionSchema = z
  .discriminatedUnion('type', [waitAction, clickAction, writeAction, pressAction, scrollAction, screenshotAction, scrapeAction, executeJavascriptAction], {
    error: `must name an action type: ${ACTION_TYPES.join(', ')}`,
  })
  .meta({ id: 'ScrapeAction' });

export const actionsSchema = z.array(actionSchema).max(MAX_ACTIONS);

export type ScrapeAction = z.output<typeof actionSchema>;
export type ScrapeActionInput = z.input<typeof actionSchema>;

/** The milliseconds of every `wait` together (a `wait` for a selector counts nothing: it ends when the selector appears). */
export function totalWaitMs(actions: ReadonlyArray<{ type?: unknown; milliseconds?: unknown }>): number {
  let total = 0;
  for (const action of actions) if (action?.type === 'wait' && typeof action.milliseconds === 'number') total += action.milliseconds;
  return total;
}

/** The CSS selectors of a list of actions, with where each is (for INVALID_SELECTOR messages). */
export function actionSelectors(actions: readonly ScrapeAction[]): Array<{ where: string; selector: string }> {
  const found: Array<{ where: string; selector: string }> = [];
  actions.forEach((action, index) => {
    if ('selector' in action && action.selector !== undefined) found.push({ where: `actions[${index}] (${action.type}) selector`, selector: action.selector });
  });
  return found;
}

/** How many screenshots the actions take (each is priced as a screenshot format: scrape/engines.ts). */
export function actionScreenshots(actions: ReadonlyArray<{ type?: unknown }> | undefined): number {
  return (actions ?? []).filter((a) => a?.type === 'screenshot').length;
}
