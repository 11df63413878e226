/**
 * The scrape result is declared once (scrape/result.ts): every declared output field reaches the
 * response schema, is kept by the stored result and is answered by the run's body. The fixtures
 * below are typed over the declaration, so a field added there fails to compile here until it is
 * given a value, and the checks then follow it through each layer.
 */
import { runResultSchema } from '../api/schemas/responses';
import { runBody } from '../api/scrape-run';
import { type ScrapeActivityDeps, storedResult } from '../activities/scrape/run-scrape';
import type { FinishedRun } from './runs';
import { SCRAPE_OUTPUT_FIELDS, type ScrapeOutputField, scrapeOutputSchema } from './result';
import type { ScrapeOutputTypes, ScrapeResult, StoredResult } from './types';

type Assert<T extends true> = T;
/** Compile-time: every declared output field is a property of the response schema. */
export type EveryFieldAnswered = Assert<[Exclude<ScrapeOutputField, keyof typeof runResultSchema.shape>] extends [never] ? true : false>;
/** Compile-time: the stored result and the engines' return type carry every declared field. */
export type EveryFieldStored = Assert<[Exclude<ScrapeOutputField, keyof StoredResult>] extends [never] ? true : false>;
export type EveryFieldReturned = Assert<[Exclude<ScrapeOutputField, keyof ScrapeResult>] extends [never] ? true : false>;

/** A value for every output field, as an engine gives it (one entry per field: the compiler asks for a new one). */
const engineOutputs: ScrapeOutputTypes = {
  data: [{ selector: 'h1', name: 'title', results: [{ text: 'Hello', html: 'Hello', attributes: { class: 'big' } }] }],
  html: '<h1>Hello</h1>',
  rawHtml: '<html><body><h1 class="big">Hello</h1></body></html>',
  markdown: '# Hello',
  text: 'Hello',
  links: [{ url: 'http://127.0.0.1/next', text: 'next', rel: null }],
  metadata: { title: 'Hello', description: null, language: 'en', canonical: null, favicon: null, published_time: null, status: 200, content_type: 'text/html', final_url: 'http://127.0.0.1/page', 'og:title': 'Hello' },
  screenshot: { png: new Uint8Array([137, 80, 78, 71]), width: 1280, height: 720 },
  headers: { 'content-type': 'text/html' },
  network: [{ url: 'http://127.0.0.1/page', method: 'GET', status: 200, resource_type: 'document', request_headers: {}, response_headers: {} }],
  actions: {
    screenshots: [{ png: new Uint8Array([137, 80, 78, 71, 13]), width: 1366, height: 900 }],
    scrapes: [{ url: 'http://127.0.0.1/page', html: '<html></html>' }],
    javascriptReturns: [{ type: 'number', value: 42 }],
  },
};

const engineResult: ScrapeResult = { url: 'http://127.0.0.1/page', final_url: 'http://127.0.0.1/page', status: 200, mode: 'browser', elapsed_ms: 12, ...engineOutputs };

/** storedResult's one collaborator: where the screenshot's PNG goes. */
function depsKeepingScreenshots() {
  const saved: Array<{ runId: string; bytes: number }> = [];
  const deps = {
    runs: {
      saveScreenshot: (runId: string, png: Uint8Array) => Promise.resolve(void saved.push({ runId, bytes: png.byteLength })),
      saveActionScreenshots: (runId: string, shots: Array<{ png: Uint8Array }>) => Promise.resolve(void shots.forEach((shot) => saved.push({ runId, bytes: shot.png.byteLength }))),
    },
  } as unknown as ScrapeActivityDeps;
  return { deps, saved };
}

describe('the scrape result, declared once (scrape/result.ts)', () => {
  it('puts every declared field in the response schema, with the declared schema itself', () => {
    expect(SCRAPE_OUTPUT_FIELDS.length).toBeGreaterThan(5);
    for (const field of SCRAPE_OUTPUT_FIELDS) {
      expect(runResultSchema.shape).toHaveProperty(field);
      expect(runResultSchema.shape[field]).toBe(scrapeOutputSchema.shape[field]);
    }
  });

  it('stores every field an engine gives (the screenshot as its reference), and the run answers each one', async () => {
    const { deps, saved } = depsKeepingScreenshots();
    const stored = await storedResult(deps, 'run-1', engineResult);
    expect(saved).toEqual([{ runId: 'run-1', bytes: 4 }, { runId: 'run-1', bytes: 5 }]);
    for (const field of SCRAPE_OUTPUT_FIELDS) expect(stored[field]).toBeDefined();
    expect(stored.screenshot).toEqual({ url: '/webhook/runs/run-1/screenshot', width: 1280, height: 720, bytes: 4 });
    // The actions' screenshots as references too: never a PNG in the stored result.
    expect(stored.actions).toEqual({
      screenshots: [{ url: '/webhook/runs/run-1/actions/screenshots/0', width: 1366, height: 900, bytes: 5 }],
      scrapes: [{ url: 'http://127.0.0.1/page', html: '<html></html>' }],
      javascriptReturns: [{ type: 'number', value: 42 }],
    });

    // Through PostgreSQL's JSON, as GET /webhook/runs/:id reads it back.
    const result = JSON.parse(JSON.stringify(stored)) as StoredResult;
    const run: FinishedRun = {
      id: 'run-1',
      url: engineResult.url,
      mode: 'browser',
      status: 'succeeded',
      attempts: 1,
      cost: 2,
      request: { url: engineResult.url, mode: 'browser', selectors: [{ selector: 'h1' }], formats: ['html', 'rawHtml', 'markdown', 'text', 'links', 'metadata', 'screenshot'] },
      result,
      error: null,
      httpStatus: 200,
      elapsedMs: 12,
    };
    const body = runBody(run, 5);
    for (const field of SCRAPE_OUTPUT_FIELDS) expect(body).toHaveProperty(field, result[field]);
    // The body is what the response schema describes (a looseObject: its declared fields are checked).
    expect(() => runResultSchema.parse(body)).not.toThrow();
    expect(Object.keys(body)).toEqual(['id', 'url', 'final_url', 'status', 'mode', 'elapsed_ms', 'attempts', ...SCRAPE_OUTPUT_FIELDS, 'credits']);
  });

  it('leaves out what the run did not produce, and the legacy document when selectors were given without the html format', () => {
    const result: StoredResult = { final_url: 'http://127.0.0.1/page', status: 200, headers: {}, html: '<p>doc</p>', data: [] };
    const run: FinishedRun = { id: 'run-2', url: 'http://127.0.0.1/page', mode: 'http', status: 'succeeded', attempts: 1, cost: 1, request: { url: 'http://127.0.0.1/page', mode: 'http', selectors: [{ selector: 'p' }] }, result, error: null, httpStatus: 200, elapsedMs: 3 };
    expect(runBody(run, 9)).toEqual({ id: 'run-2', url: run.url, final_url: run.url, status: 200, mode: 'http', elapsed_ms: 3, attempts: 1, data: [], headers: {}, credits: { cost: 1, remaining: 9 } });
  });
});
