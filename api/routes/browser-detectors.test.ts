/**
 * Browser mode against detectors no one here wrote (docs/scraping.md, "How we look to a site"),
 * end to end: real API and worker processes, Temporal, PostgreSQL, the default Chromium (the full
 * one, driven by patchright-core), and fixture pages (test/fixtures/detectors.ts) that run each
 * detector as its npm package ships it:
 *  - fpscanner 1.0.2 (Castle's FPScanner): its fast bot detection rules;
 *  - headless-detector 2.0.1: its headless score and the signals that raised it.
 * What we cannot hide on a machine without a GPU (SwiftShader's WebGL renderer, and the fonts the
 * machine has) is named, and is the only thing allowed to fire.
 * Also: the identity's time zone and languages follow the proxy's country (PROXY_TIERS with a
 * `de` pool: a local HTTP proxy) and the request's own Accept-Language.
 */
import { randomBytes } from 'node:crypto';
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestProxy, startHttpProxy } from '../../test/fixtures/proxies';
import { type TestAccount, createAccount, setBalance } from '../../test/helpers/accounts';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { waitFor } from '../../test/helpers/wait';
import { defaultChromiumPath } from '../../platform/config';

jest.setTimeout(300_000);

let stack: Stack;
let fixtures: FixtureServer;
let proxy: TestProxy;
let account: TestAccount;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  proxy = await startHttpProxy({ username: 'e2e', password: 'detect-de-Pw-52', localAddress: '127.0.0.2' });
  stack = await startStack({
    env: {
      CHROMIUM_PATH: defaultChromiumPath(),
      SESSION_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      // A German pool only: scrapes without a country go direct.
      PROXY_TIERS: JSON.stringify({ basic: { de: [proxy.url] } }),
    },
  });
  account = await createAccount(stack.baseUrl);
});

afterAll(async () => {
  await stack?.stop();
  await proxy?.close();
  await fixtures?.close();
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 1000);
});

type Verdict = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Scrapes a detector page in browser mode and returns the verdict it wrote. Asynchronously, then
 * waiting for the run: on this loaded machine a first proxied browser scrape can outlast the
 * synchronous answer's 50 s.
 */
async function verdictOf(page: string, extra: Json = {}): Promise<Verdict> {
  const headers = { 'x-api-key': account.apiKey };
  const queued = await call(stack.baseUrl, 'POST', '/webhook/unblocker', headers, {
    url: `${fixtures.url}/${page}`,
    mode: 'browser',
    async: true,
    wait_for: 'body[data-done]',
    selectors: [{ name: 'verdict', selector: '#verdict' }],
    // fpscanner's collection alone took 20–40 s of a page under load 40–50 on 2 shared cores.
    options: { timeout_ms: 50_000 },
    ...extra,
  });
  expect(queued.status).toBe(202);
  const run = await waitFor(
    `the run of ${page}`,
    async () => {
      const { body } = await call(stack.baseUrl, 'GET', `/webhook/runs/${String(queued.body.id)}`, headers);
      return body.status === 'succeeded' || body.status === 'failed' ? body : undefined;
    },
    240_000,
  );
  expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: undefined });
  const text = ((run.result as Json).data as Array<{ results: Array<{ text: string }> }>)[0]!.results[0]!.text;
  return JSON.parse(text) as Verdict;
}

describe('browser mode against third-party detectors', () => {
  it('fpscanner: no rule fires but the software WebGL renderer', async () => {
    const verdict = await verdictOf('detect/fpscanner');
    expect(verdict.error).toBeUndefined();
    // hasCDP (Runtime.enable), hasUTCTimezone, hasWebdriver*, hasPlaywright, hasMissingChromeObject,
    // hasHeadlessChromeScreenResolution, the iframe and worker mismatches: none.
    const fired = verdict.fired as string[];
    expect(fired.filter((rule) => !/^hasSwiftshaderRenderer:/.test(rule))).toEqual([]);
    expect(verdict.timezone).not.toBe('UTC');
  });

  it('headless-detector: nothing but the software renderer and the machine fonts count', async () => {
    const verdict = await verdictOf('detect/headless-detector');
    expect(verdict.error).toBeUndefined();
    expect(verdict.webdriver).toBe(false);
    expect(verdict.cdp.detected).toBe(false);
    expect(verdict.advanced.stackTrace.cdpDetected).toBe(false);
    expect(verdict.advanced.consoleDebug.detected).toBe(false);
    expect(verdict.automation.__playwright__binding__).toBe(false);
    expect(verdict.automation.__pwInitScripts).toBe(false);
    expect(verdict.automation.playwrightExposedFunctions.detected).toBe(false);
    expect(verdict.userAgent.suspicious).toBe(false);
    expect(verdict.worker.suspicious).toBe(false);
    // A window with a desktop Chrome's bars: taller than its viewport.
    expect(verdict.headless.innerEqualsOuter).toBe(false);
    expect(verdict.headless.outerHeight).toBeGreaterThan(verdict.headless.innerHeight);
    // The only checks allowed to fire: what this machine is (software WebGL, its fonts).
    // `worker-available` fires when its worker does not answer within 1 s (reason "Worker timeout",
    // not scored): the load of this shared machine, not a headless sign.
    const allowed = ['webgl-software', 'adv-runtime', ...(verdict.worker.reason === 'Worker timeout' ? ['worker-available'] : [])];
    const hidden = (verdict.summary.detections as Array<{ checkId: string }>).map((d) => d.checkId).filter((id) => !allowed.includes(id));
    expect(hidden).toEqual([]);
    // Its score without those: 0.10 (software renderer) + 0.08 (fonts) at most.
    expect(verdict.score).toBeLessThanOrEqual(0.18 + 1e-9);
  });
});

describe('where the identity says it is', () => {
  it('with no country: a US time zone and US English, never the machine UTC', async () => {
    const { probes, headers } = await verdictOf('detect');
    expect(probes.timezone).toMatch(/^America\//);
    expect(probes.languages).toEqual(['en-US', 'en']);
    expect(headers['accept-language']).toMatch(/^en-US,en/);
  });

  it("with a country: that country's time zone and languages, through its proxy", async () => {
    const before = proxy.count();
    const { probes, headers, botd } = await verdictOf('detect', { country: 'DE' });
    expect(proxy.count()).toBeGreaterThan(before);
    expect(probes.timezone).toBe('Europe/Berlin');
    expect(probes.languages).toEqual(['de-DE', 'de', 'en-US', 'en']);
    expect(probes.language).toBe('de-DE');
    expect(headers['accept-language']).toMatch(/^de-DE,de;q=0\.9/);
    expect(botd.bot).toBe(false);
  });

  it("the request's own Accept-Language gives navigator.languages", async () => {
    const { probes, headers } = await verdictOf('detect', { headers: { 'Accept-Language': 'fr-FR,fr;q=0.9' } });
    expect(headers['accept-language']).toMatch(/^fr-FR,fr/);
    expect(probes.languages).toEqual(['fr-FR', 'fr']);
  });
});
