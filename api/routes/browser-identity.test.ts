/**
 * How browser mode looks to a site (docs/scraping.md, "How we look to a site"), end to end: real
 * API and worker processes, Temporal, PostgreSQL, the default Chromium (the full one), and the fixture site's
 * /detect page, which runs BotD (@fingerprintjs/botd, from the npm registry) and direct probes in
 * the page and reports what the server received. The scrape reads the page's verdict through a
 * selector, as any user would.
 */
import { randomBytes } from 'node:crypto';
import { type FixtureServer, startFixtureServer } from '../../test/fixtures/server';
import { type TestAccount, createAccount, setBalance } from '../../test/helpers/accounts';
import { type Json, call } from '../../test/helpers/http';
import { type Stack, startStack } from '../../test/helpers/stack';
import { defaultChromiumPath } from '../../platform/config';

jest.setTimeout(300_000);

let stack: Stack;
let fixtures: FixtureServer;
let account: TestAccount;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  // The default engine (the full chromium when installed), whatever the other tests run on (test/global-setup.ts).
  stack = await startStack({ env: { CHROMIUM_PATH: defaultChromiumPath(), SESSION_ENCRYPTION_KEY: randomBytes(32).toString('base64') } });
  account = await createAccount(stack.baseUrl);
});

afterAll(async () => {
  await stack?.stop();
  await fixtures?.close();
});

beforeEach(async () => {
  await setBalance(stack.databaseUrl, account.userId, 1000);
});

type Verdict = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Scrapes /detect in browser mode and returns the page's verdict. */
async function detect(extra: Json = {}): Promise<Verdict> {
  const { status, body } = await call(stack.baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': account.apiKey }, {
    url: `${fixtures.url}/detect`,
    mode: 'browser',
    wait_for: 'body[data-done]',
    selectors: [{ name: 'verdict', selector: '#verdict' }],
    ...extra,
  });
  expect(status).toBe(200);
  const text = (body.data as Array<{ results: Array<{ text: string }> }>)[0]!.results[0]!.text;
  return JSON.parse(text) as Verdict;
}

describe('browser mode as a site sees it', () => {
  it('BotD says not a bot, and no headless or automation giveaway shows', async () => {
    const verdict = await detect();
    const { probes, headers } = verdict;
    expect(verdict.botd).toEqual({ bot: false, botKind: null, detectors: [] });

    // User agent and client hints: a Chromium, never HeadlessChrome, the same in headers, page and worker.
    expect(headers['user-agent']).toMatch(/ Chrome\/\d+\.0\.0\.0 /);
    expect(headers['user-agent']).not.toMatch(/headless/i);
    expect(headers['sec-ch-ua']).toMatch(/"Chromium";v="\d+"/);
    expect(headers['sec-ch-ua']).not.toMatch(/headless/i);
    expect(headers['sec-ch-ua-platform']).toBe('"Linux"');
    expect(headers['accept-language']).toMatch(/^en-US,en/);
    expect(probes.userAgent).toBe(headers['user-agent']);
    expect(probes.workerUserAgent).toBe(headers['user-agent']);
    expect(probes.sharedWorkerUserAgent).toBe(headers['user-agent']);
    expect(probes.brands.join(' ')).not.toMatch(/headless/i);
    expect(probes.fullVersionList.length).toBeGreaterThan(0);
    expect(probes.fullVersionList.join(' ')).not.toMatch(/headless/i);
    expect(probes.uaPlatform).toBe('Linux');
    expect(probes.platform).toBe('Linux x86_64');
    expect(probes.languages).toEqual(['en-US', 'en']);

    // What automation and the headless shell give away.
    expect(probes.webdriver).toBe(false);
    expect(probes.plugins.length).toBeGreaterThan(0);
    expect(probes.pluginsIsPluginArray).toBe(true);
    expect(probes.mimeTypes).toContain('application/pdf');
    expect(probes.chrome).toEqual(expect.arrayContaining(['app', 'csi', 'loadTimes']));
    expect(probes.notificationPermission === 'denied' && probes.notificationQuery === 'prompt').toBe(false);
    expect(probes.automationGlobals).toEqual([]);
    expect(probes.runtimeEnableLeak).toBe(false);
    // Nothing patched in the page: every getter a script can inspect is native.
    expect(probes.notNative).toEqual([]);
    expect(probes.navigatorOwnProps).toEqual([]);

    // A desktop screen around the 1366×900 viewport.
    expect(probes.window.innerWidth).toBe(1366);
    expect(probes.window.innerHeight).toBe(900);
    expect(probes.screen.width).toBeGreaterThan(probes.window.innerWidth);
    expect(probes.screen.height).toBeGreaterThan(probes.window.innerHeight);
    // With a desktop panel: the work area is below the screen's height, and the window inside it
    // with a desktop Chrome's bars (scrape/browser/presentation.ts).
    expect(probes.screen.availHeight).toBeLessThan(probes.screen.height);
    expect(probes.screen.availWidth).toBe(probes.screen.width);
    expect(probes.window.outerHeight).toBeGreaterThan(probes.window.innerHeight);
    expect(probes.window.screenY).toBeGreaterThanOrEqual(probes.screen.availTop);
    expect(probes.window.screenY + probes.window.outerHeight).toBeLessThanOrEqual(probes.screen.availTop + probes.screen.availHeight);
  });

  it('a request naming its own user agent sends it as is', async () => {
    const ua = 'Mozilla/5.0 (compatible; ExampleBot/1.0)';
    const { headers, probes } = await detect({ headers: { 'User-Agent': ua } });
    expect(headers['user-agent']).toBe(ua);
    expect(probes.userAgent).toBe(ua);
  });

  it('mobile: an Android Chrome of the same engine, client hints included', async () => {
    const { headers, probes } = await detect({ mobile: true });
    expect(headers['user-agent']).toMatch(/Android .* Chrome\/\d+\.0\.0\.0 Mobile Safari/);
    expect(headers['sec-ch-ua-mobile']).toBe('?1');
    expect(headers['sec-ch-ua-platform']).toBe('"Android"');
    expect(headers['sec-ch-ua']).not.toMatch(/headless/i);
    expect(probes.uaMobile).toBe(true);
    expect(probes.webdriver).toBe(false);
  });

  it('a stored session keeps its identity across scrapes', async () => {
    const first = await detect({ session: { name: 'identity', save: true } });
    const again = await detect({ session: { name: 'identity' } });
    const identity = (v: Verdict) => ({ ua: v.headers['user-agent'], hints: v.headers['sec-ch-ua'], screen: v.probes.screen, languages: v.probes.languages, timezone: v.probes.timezone });
    expect(identity(again)).toEqual(identity(first));
    // Other sessions get screens of their own: over several names, not all the same one.
    const screens = new Set<string>();
    for (const name of ['identity-a', 'identity-b', 'identity-c', 'identity-d', 'identity-e', 'identity-f']) {
      const v = await detect({ session: { name, save: true } });
      screens.add(`${v.probes.screen.width}x${v.probes.screen.height}`);
    }
    expect(screens.size).toBeGreaterThan(1);
  });
});
