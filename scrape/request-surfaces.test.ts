/**
 * One list of scrape fields (issue 37 §4): every field of the scrape request schema reaches every
 * surface that takes a scrape request — flows (scrape and foreach nodes), user templates, crawls,
 * batch scrapes, monitors, and the MCP scrape tool. The keys are read from the schema, so a field
 * added later is covered without touching this test. A surface may still refuse a field on
 * purpose (a crawl page's `url` is the page's); those refusals are listed with their reason.
 */
import { z } from 'zod';
import { scrapeRequestSchema } from './request';
import { AppError } from '../platform/errors';
import { parseFlow } from '../api/schemas/flows';
import { templateProblems } from '../api/schemas/user-templates';
import { parseBatchRequest, parseCrawlRequest } from '../crawl/job-request';
import { parseMonitorBody } from '../monitors/request';

const SCHEMA_KEYS = Object.keys(scrapeRequestSchema.shape);
const URL = 'https://example.com/';

/** The problems a surface reports for a body (none when it accepts it). */
function problemsOf(run: () => unknown): string[] {
  try {
    run();
    return [];
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return Array.isArray(error.messages) ? error.messages : [error.messages];
  }
}

/** A message refusing `key` as a field the surface does not know (not a problem with its value). */
function refusesField(problems: readonly string[], key: string): boolean {
  const named = new RegExp(`(^|[\\s.,"])${key}($|[\\s,])`);
  return problems.some((p) => {
    const refused = /^(.*?) (?:is|are) not allowed/.exec(p);
    return refused !== null && named.test(refused[1]!);
  });
}

/** Each surface: how to send a scrape request with one extra field, and the fields it refuses on purpose. */
const SURFACES: Record<string, { send: (key: string, value: unknown) => string[]; refusedOnPurpose: readonly string[] }> = {
  'flow scrape node': {
    send: (key, value) => problemsOf(() => parseFlow({ name: 'f', nodes: [{ id: 's', type: 'scrape', config: { url: URL, [key]: value } }] })),
    refusedOnPurpose: ['async'],
  },
  'flow foreach node': {
    send: (key, value) =>
      problemsOf(() =>
        parseFlow({
          name: 'f',
          nodes: [
            { id: 'list', type: 'scrape', config: { url: URL, selectors: [{ name: 'links', selector: 'a', attribute: 'href', all: true }] } },
            { id: 'each', type: 'foreach', needs: ['list'], config: { items: '{{ nodes.list.data.links }}', request: { url: '{{ item }}', [key]: value } } },
          ],
        }),
      ),
    refusedOnPurpose: ['async'],
  },
  'user template': { send: (key, value) => templateProblems({ url: URL, [key]: value }, []), refusedOnPurpose: ['async'] },
  'crawl page': { send: (key, value) => problemsOf(() => parseCrawlRequest({ url: URL, scrape: { [key]: value } })), refusedOnPurpose: ['url', 'async', 'webhook'] },
  'batch page': { send: (key, value) => problemsOf(() => parseBatchRequest({ urls: [URL], scrape: { [key]: value } })), refusedOnPurpose: ['url', 'async', 'webhook'] },
  monitor: {
    send: (key, value) => problemsOf(() => parseMonitorBody({ name: 'm', request: { url: URL, [key]: value }, schedule: { every: '1h' } }, 60_000)),
    refusedOnPurpose: ['async', 'webhook'],
  },
  'MCP scrape tool': {
    // The tool's arguments are the scrape route's body schema as JSON Schema (api/mcp/tools.ts inputSchemaOf).
    send: (key) => {
      const properties = (z.toJSONSchema(scrapeRequestSchema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, unknown> }).properties;
      return key in properties ? [] : [`${key} is not allowed`];
    },
    refusedOnPurpose: [],
  },
};

describe('every scrape request field reaches every surface', () => {
  it('reads a non-trivial list of keys from the schema', () => {
    expect(SCHEMA_KEYS).toEqual(expect.arrayContaining(['url', 'formats', 'actions', 'cookies']));
  });

  for (const [surface, { send, refusedOnPurpose }] of Object.entries(SURFACES)) {
    describe(surface, () => {
      it.each(SCHEMA_KEYS.filter((key) => key !== 'url' || surface.startsWith('crawl') || surface.startsWith('batch')))('takes `%s` as a field (its value may still be refused)', (key) => {
        const problems = send(key, null);
        if (refusedOnPurpose.includes(key)) expect(refusesField(problems, key) || problems.some((p) => p.includes(key))).toBe(true);
        else expect(problems.filter((p) => refusesField([p], key))).toEqual([]);
      });

      it('refuses a field the schema does not have (so the check above can fail)', () => {
        expect(refusesField(send('no_such_field', true), 'no_such_field')).toBe(true);
      });
    });
  }
});
