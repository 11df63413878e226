/**
 * The web console end to end: its build (scripts/build-dashboard.cjs) served by the real API and
 * worker processes (Temporal, PostgreSQL, the local fixture site), driven by headless Chromium
 * (playwright-core with Debian's Chromium, as browser mode runs it). One account walks every page:
 * sign up → create a key (keyboard only) → the key scrapes → the run in the runs page and its
 * detail → the usage chart shows it → a pack bought with the local provider raises the balance →
 * revoke → the key gets 401 → notifications read → a flow run followed and cancelled → consent
 * and export → sign out and back in. Then every page at 375 px wide: no horizontal overflow.
 *
 * Screenshots (docs/dashboard/*.png, shown in docs/dashboard.md) are written only when missing
 * or with UPDATE_SCREENSHOTS=1, so a test run on a clean clone leaves the tree as it was.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { type Browser, type BrowserContext, type Locator, type Page, chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../scrape/browser/chromium';
import { defaultChromiumPath } from '../platform/config';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { call } from '../test/helpers/http';
import { type Stack, startStack } from '../test/helpers/stack';
import { waitFor } from '../test/helpers/wait';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildDashboard, JS_BUDGET_GZIP_BYTES } = require('../scripts/build-dashboard.cjs') as {
  buildDashboard: (options?: { log?: (line: string) => void }) => Promise<{ js: string; css: string; gzipJsBytes: number }>;
  JS_BUDGET_GZIP_BYTES: number;
};

// Each step waits for pages that wait for the service: generous on a loaded two-core machine.
jest.setTimeout(180_000);

const SHOTS = path.resolve(__dirname, '..', 'docs', 'dashboard');
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';

let stack: Stack;
let fixtures: FixtureServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let manifest: { js: string; css: string; gzipJsBytes: number };

const email = `console-${Date.now().toString(36)}@example.test`;
const password = 'a-long-enough-password';
let secret = '';

beforeAll(async () => {
  manifest = await buildDashboard({ log: () => undefined });
  fixtures = await startFixtureServer();
  // Buying credit is completed in the console with the local provider, which must be asked for by name.
  stack = await startStack({ env: { PAYMENT_PROVIDER: 'local' } });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || defaultChromiumPath(), args: CHROMIUM_ARGS, timeout: 60_000 });
  context = await browser.newContext({ viewport: { width: 1180, height: 820 }, baseURL: stack.baseUrl, permissions: ['clipboard-read', 'clipboard-write'], acceptDownloads: true });
  // A loaded two-core machine runs Temporal, the worker and the API beside Chromium.
  context.setDefaultTimeout(60_000);
  page = await context.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await fixtures?.close();
});

/** Writes docs/dashboard/<name>.png when missing or with UPDATE_SCREENSHOTS=1. */
async function screenshot(target: Page, name: string, mask: Locator[] = []) {
  const file = path.join(SHOTS, `${name}.png`);
  if (!UPDATE && existsSync(file)) return;
  mkdirSync(SHOTS, { recursive: true });
  await target.screenshot({ path: file, fullPage: true, animations: 'disabled', mask });
}

const heading = (target: Page, name: string) => target.getByRole('heading', { level: 1, name }).waitFor();

async function visit(target: Page, href: string, title: string) {
  await target.goto(href);
  await heading(target, title);
}

/**
 * Marks every notification read and checks a fresh load agrees (list and header badge). A
 * notification can be written after the page loaded (a subscription's activation is notified
 * after its payment commits), so this repeats, a bounded number of times, until a load shows none.
 */
async function readEverything(target: Page) {
  const summary = target.getByTestId('unread-summary');
  for (let attempt = 1; attempt <= 10; attempt++) {
    await target.reload({ waitUntil: 'networkidle' });
    await heading(target, 'Notifications');
    await summary.waitFor();
    const badges = await target.getByTestId('unread-count').count();
    if ((await summary.innerText()) === 'Nothing unread.' && badges === 0) return;
    const markAll = target.getByRole('button', { name: 'Mark all read' });
    if (await markAll.isVisible()) {
      await Promise.all([target.waitForResponse((r) => r.url().endsWith('/api/notifications/read-all')), markAll.click()]);
    }
  }
  throw new Error(`notifications still unread after 10 rounds of "Mark all read": ${await summary.innerText()}`);
}

const today = () => new Date().toISOString().slice(0, 10);

async function scrapeWithSecret(url: string) {
  return call(stack.baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': secret }, { url, selectors: ['h1'] });
}

describe('the build and how the API serves it', () => {
  it('is under the JavaScript budget, served with its content types; /dashboard/* answers the page, a missing asset 404', async () => {
    const js = readFileSync(path.join(__dirname, '..', 'dist', 'dashboard', 'assets', manifest.js));
    const gzip = zlib.gzipSync(js, { level: 9 }).length;
    console.log(`dashboard first load: ${manifest.js} ${(gzip / 1024).toFixed(1)} KB of JavaScript gzip (budget ${JS_BUDGET_GZIP_BYTES / 1024} KB)`);
    expect(gzip).toBe(manifest.gzipJsBytes);
    expect(gzip).toBeLessThan(JS_BUDGET_GZIP_BYTES);

    for (const route of ['/dashboard', '/dashboard/', '/dashboard/keys', '/dashboard/runs/some-id']) {
      const res = await fetch(`${stack.baseUrl}${route}`);
      expect([route, res.status, res.headers.get('content-type')]).toEqual([route, 200, expect.stringMatching(/^text\/html; charset=utf-8$/i)]);
      const html = await res.text();
      expect(html).toContain(`<script type="module" src="/dashboard/assets/${manifest.js}">`);
      // Nothing from another origin.
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    }
    const script = await fetch(`${stack.baseUrl}/dashboard/assets/${manifest.js}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    expect(script.headers.get('cache-control')).toContain('immutable');
    const style = await fetch(`${stack.baseUrl}/dashboard/assets/${manifest.css}`);
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);
    const missing = await fetch(`${stack.baseUrl}/dashboard/assets/nope.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });
});

describe('one account through every page', () => {
  it('signs up (the API\'s own message on a bad password), creates a key with the keyboard and shows its secret once', async () => {
    await page.goto('/dashboard');
    await heading(page, 'Sign in');
    await page.waitForURL((url) => url.pathname === '/dashboard/sign-in');
    await screenshot(page, 'sign-in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await heading(page, 'Create an account');

    await page.getByLabel('Name').fill('Console Tester');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    const refused = await call(stack.baseUrl, 'POST', '/api/auth/sign-up/email', {}, { name: 'x', email: 'x@example.test', password: 'short' });
    expect(refused.status).toBe(422);
    await page.getByRole('alert').filter({ hasText: (refused.body.message as string[]).join('; ') }).waitFor();
    await screenshot(page, 'sign-up');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await heading(page, 'Usage');
    await page.getByText(email).waitFor();

    await page.getByRole('link', { name: 'API keys' }).click();
    await heading(page, 'API keys');
    await page.getByText('No keys yet.').waitFor();
    // Keyboard only: type, Tab to the prefix, Enter submits.
    await page.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.type('laptop');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('dash_');
    await page.keyboard.press('Enter');
    const field = page.getByTestId('new-secret');
    await field.waitFor();
    secret = await field.inputValue();
    expect(secret).toMatch(/^dash_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const row = page.locator('tr', { hasText: 'laptop' });
    await row.getByText('never').waitFor();
    // Listed by its first characters (`start`), never whole.
    const start = (await row.locator('code').innerText()).replace(/…$/, '');
    expect(start.length).toBeGreaterThan(3);
    expect(secret.startsWith(start) && start.length < secret.length).toBe(true);
    await screenshot(page, 'keys', [field]);
    await page.getByRole('button', { name: 'Done' }).click();
    await field.waitFor({ state: 'detached' });
    // Shown once: a reload lists the key, never its secret.
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('the key scrapes the fixture page; the run is in the runs page, with its result and its workflow in the Temporal UI', async () => {
    const scraped = await scrapeWithSecret(`${fixtures.url}/page/1`);
    expect(scraped.status).toBe(200);
    const runId = scraped.body.id as string;

    await page.getByRole('link', { name: 'Runs' }).click();
    await heading(page, 'Runs');
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await row.waitFor();
    expect((await row.locator('td').allInnerTexts()).slice(1)).toEqual(['succeeded', 'http', `${fixtures.url}/page/1`, '1', '1', expect.stringMatching(/^\d+(\.\d)? m?s$/)]);
    await screenshot(page, 'runs');

    await row.getByRole('link').click();
    await heading(page, 'Run');
    const link = page.getByTestId('temporal-link');
    const detail = await call(stack.baseUrl, 'GET', `/api/users/scrape-runs/${runId}`, { cookie: await cookieHeader() });
    expect(await link.getAttribute('href')).toBe(`http://127.0.0.1:8233/namespaces/default/workflows/${encodeURIComponent(detail.body.workflowId as string)}`);
    await page.getByLabel('Result').getByText('"Page 1"').waitFor();
    await screenshot(page, 'run');
  });

  it('the usage page charts the scrape (requests by outcome, credits by mode) and lists it per key', async () => {
    await page.getByRole('link', { name: 'Usage' }).click();
    await heading(page, 'Usage');
    const day = today();
    await page.locator(`[data-chart="requests"] g[data-day="${day}"] rect[data-series="succeeded"][data-value="1"]`).waitFor();
    await page.locator(`[data-chart="credits"] g[data-day="${day}"] rect[data-series="http"][data-value="1"]`).waitFor();
    expect(await page.getByTestId('total-requests').innerText()).toBe('1');
    expect(await page.getByTestId('total-credits').innerText()).toBe('1');
    expect(await page.locator(`[data-testid="days-table"] tr[data-day="${day}"] td`).allInnerTexts()).toEqual(['1', '1', '0', '1', 'http: 1 req, 1 cr']);
    expect(await page.getByTestId('keys-usage').locator('tr', { hasText: 'laptop' }).locator('td').allInnerTexts()).toEqual(['1', '1', '0', '1']);
    await screenshot(page, 'usage');
  });

  it('an auto scrape that climbed shows its escalation path on the run page', async () => {
    // No proxy tier on this stack: the app shell goes http (direct) → browser (direct).
    const scraped = await call(stack.baseUrl, 'POST', '/webhook/unblocker', { 'x-api-key': secret }, { url: `${fixtures.url}/escalate/app-shell`, mode: 'auto', selectors: ['#rendered'] });
    expect(scraped.status).toBe(200);
    await page.goto(`/dashboard/runs/${encodeURIComponent(scraped.body.id as string)}`);
    await heading(page, 'Run');
    const steps = page.getByTestId('run-escalation').locator('li');
    await steps.nth(1).waitFor();
    expect(await steps.allInnerTexts()).toEqual([
      'http without a proxy: JAVASCRIPT_REQUIRED; moved on: the page needs JavaScript, free',
      'browser without a proxy: served the page',
    ]);
    expect(await steps.evaluateAll((items) => items.map((item) => item.getAttribute('data-outcome')))).toEqual(['JAVASCRIPT_REQUIRED', 'succeeded']);
  });

  it('buying a pack with the local provider raises the balance', async () => {
    await page.getByRole('link', { name: 'Billing' }).click();
    await heading(page, 'Billing');
    const balance = page.getByTestId('billing-balance');
    await balance.filter({ hasText: /^\d/ }).waitFor();
    const before = Number((await balance.innerText()).replace(/,/g, ''));
    await page.getByRole('button', { name: 'Buy 1,000 credits' }).click();
    const pending = page.getByTestId('payments-table').locator('tr', { hasText: 'pending' });
    await pending.waitFor();
    await pending.getByRole('button', { name: 'Complete (local provider)' }).click();
    await page.getByTestId('payments-table').locator('tr', { hasText: 'succeeded' }).waitFor();
    await balance.filter({ hasText: (before + 1000).toLocaleString('en-US') }).waitFor();
  });

  it('subscribes to a paid plan (its first payment completed with the local provider), changes plan, cancels at period end', async () => {
    await page.getByRole('combobox', { name: /^Plan/ }).selectOption('starter');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const pending = page.getByTestId('payments-table').locator('tr', { hasText: 'plan Starter' });
    await pending.getByText('pending').waitFor();
    await pending.getByRole('button', { name: 'Complete (local provider)' }).click();
    await pending.getByText('succeeded').waitFor();
    await page.getByTestId('current-plan').filter({ hasText: 'Starter' }).waitFor();
    await page.getByRole('combobox', { name: /^Change plan to/ }).selectOption('pro');
    await page.getByRole('button', { name: 'Change plan' }).click();
    await page.getByText(/^Pro from /).waitFor();
    await screenshot(page, 'billing');
    await page.getByRole('button', { name: 'Cancel at period end' }).click();
    await page.getByRole('term').filter({ hasText: 'Ends' }).waitFor();
  });

  it('revokes the key after a confirmation (keyboard); the key then gets 401; the notification is read', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await heading(page, 'API keys');
    const row = page.locator('tr', { hasText: 'laptop' });
    await row.getByText(/\d/).first().waitFor();
    await row.getByRole('button', { name: 'Revoke laptop' }).focus();
    await page.keyboard.press('Enter');
    // The confirmation takes the focus: Enter confirms.
    const confirm = row.getByRole('button', { name: 'Yes, revoke' });
    await confirm.waitFor();
    expect(await confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await row.getByRole('cell', { name: 'revoked' }).waitFor();
    const refused = await scrapeWithSecret(`${fixtures.url}/page/2`);
    expect(refused.status).toBe(401);

    await page.getByRole('link', { name: /Notifications/ }).click();
    await heading(page, 'Notifications');
    await page.getByTestId('unread-count').waitFor();
    const revoked = page.locator('li[data-notification-type="key.revoked"]');
    await revoked.waitFor();
    await screenshot(page, 'notifications');
    await revoked.getByRole('button', { name: /Mark .* read/ }).click();
    await revoked.getByText('read', { exact: true }).waitFor();
    await readEverything(page);
  });

  it('lists stored sessions without their cookies and deletes one after a confirmation', async () => {
    const state = { cookies: [{ name: 'sid', value: 'dashboard-secret-cookie', domain: 'members.example.test', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }], origins: [] };
    expect((await page.request.put('/sessions/dashboard-demo', { data: state })).status()).toBe(201);
    await page.getByRole('link', { name: 'Sessions' }).click();
    await heading(page, 'Sessions');
    const row = page.locator('tr[data-session="dashboard-demo"]');
    await row.getByRole('cell', { name: 'members.example.test' }).waitFor();
    expect(await page.content()).not.toContain('dashboard-secret-cookie');
    await screenshot(page, 'sessions');
    await row.getByRole('button', { name: 'Delete dashboard-demo' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('No sessions yet.').waitFor();
    expect((await page.request.get('/sessions/dashboard-demo')).status()).toBe(404);
  });

  it('follows a flow run node by node and cancels it', async () => {
    const created = await page.request.post('/flows', {
      data: {
        name: 'title then pause',
        nodes: [
          { id: 'page', type: 'scrape', config: { url: `${fixtures.url}/page/4`, selectors: ['h1'] } },
          { id: 'pause', type: 'delay', needs: ['page'], config: { ms: 120_000 } },
        ],
      },
    });
    expect(created.status()).toBe(201);
    const flow = (await created.json()) as { id: string };
    const started = await page.request.post(`/flows/${flow.id}/runs`);
    expect(started.status()).toBe(202);
    const run = (await started.json()) as { id: string };

    await page.getByRole('link', { name: 'Flows' }).click();
    await heading(page, 'Flows');
    await page.getByRole('link', { name: 'title then pause' }).click();
    await heading(page, 'Flow “title then pause”');
    await page.locator(`tr[data-flow-run-id="${run.id}"]`).getByRole('link').click();
    await heading(page, 'Flow run');
    // The page refreshes itself while the run is live.
    const node = (id: string) => page.locator(`li[data-node-id="${id}"]`);
    const state = async () => JSON.stringify(await (await page.request.get(`/flows/${flow.id}/runs/${run.id}`)).json());
    await explained(node('page').locator('.status-succeeded').waitFor(), state);
    await explained(node('pause').locator('.status-running').waitFor(), state);
    await node('page').getByText('Output').click();
    await node('page').getByLabel('Output of page').getByText('"Page 4"').waitFor();
    await screenshot(page, 'flow-run');
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('button', { name: 'Yes, cancel' }).click();
    await page.getByTestId('flow-run-status').getByText('cancelled').waitFor();
    await node('pause').locator('.status-cancelled').waitFor();
  });

  it('lists a run waiting for input with its prompt and answers it from the page', async () => {
    const created = await page.request.post('/flows', {
      data: {
        name: 'needs a page number',
        nodes: [
          { id: 'which', type: 'input', config: { prompt: 'Which page should be read?' } },
          { id: 'page', type: 'scrape', needs: ['which'], config: { url: `${fixtures.url}/page/{{ nodes.which.value }}`, selectors: ['h1'] } },
        ],
      },
    });
    expect(created.status()).toBe(201);
    const flow = (await created.json()) as { id: string };
    const started = await page.request.post(`/flows/${flow.id}/runs`);
    expect(started.status()).toBe(202);
    const run = (await started.json()) as { id: string };
    const state = async () => JSON.stringify(await (await page.request.get(`/flows/${flow.id}/runs/${run.id}`)).json());
    await explained(
      waitFor('the run waiting for input', async () => (JSON.parse(await state()) as { status: string }).status === 'waiting_input'),
      state,
    );

    await page.getByRole('link', { name: 'Flows' }).click();
    await heading(page, 'Flows');
    await page.getByRole('link', { name: 'waiting for input' }).click();
    await heading(page, 'Waiting for input');
    const waiting = page.locator(`li[data-waiting-run-id="${run.id}"]`);
    await waiting.getByLabel('Which page should be read?').fill('6');
    await screenshot(page, 'flow-waiting-input');
    await waiting.getByRole('button', { name: 'Send answer' }).click();
    await explained(waiting.waitFor({ state: 'detached' }), state);
    await page.getByText('No run is waiting for input.').waitFor();

    const done = await waitFor('the run finished', async () => {
      const body = JSON.parse(await state()) as { status: string; nodes: Array<{ id: string; output: unknown }> };
      return ['succeeded', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
    });
    expect(done.status).toBe('succeeded');
    expect(JSON.stringify(done.nodes.find((n) => n.id === 'page')!.output)).toContain('Page 6');
  });

  it('lists a monitor with its last check and shows a check\'s diff', async () => {
    const created = await page.request.post('/monitors', { data: { name: 'watched page', request: { url: `${fixtures.url}/page/5` }, schedule: { every: '1h' } } });
    expect(created.status()).toBe(201);
    const monitor = (await created.json()) as { id: string };
    const checkAndWait = async (count: number) => {
      expect((await page.request.post(`/monitors/${monitor.id}/check`)).status()).toBe(202);
      for (let i = 0; i < 600; i++) {
        const { checks } = (await (await page.request.get(`/monitors/${monitor.id}/checks`)).json()) as { checks: Array<{ status: string }> };
        if (checks.length >= count && checks[0]!.status !== 'running') return checks[0]!.status;
        await page.waitForTimeout(100);
      }
      throw new Error(`check ${count} of the monitor did not finish`);
    };
    expect(await checkAndWait(1)).toBe('new');
    // The watched page changes (another page of the fixture site): the second check has a diff.
    expect((await page.request.patch(`/monitors/${monitor.id}`, { data: { request: { url: `${fixtures.url}/page/6` } } })).status()).toBe(200);
    expect(await checkAndWait(2)).toBe('changed');

    await page.getByRole('link', { name: 'Monitors' }).click();
    await heading(page, 'Monitors');
    await page.locator(`tr[data-monitor-id="${monitor.id}"]`).locator('.status-changed').waitFor();
    await page.getByRole('link', { name: 'watched page' }).click();
    await heading(page, 'Monitor “watched page”');
    await page.locator('tr[data-check-id]').first().getByRole('link').click();
    await heading(page, 'What changed');
    const diff = page.getByLabel('Unified diff');
    await diff.locator('.diff-removed', { hasText: 'Page 5' }).first().waitFor();
    await diff.locator('.diff-added', { hasText: 'Page 6' }).first().waitFor();
    await screenshot(page, 'monitor-diff');
  });

  it('records consent, downloads the data export, signs out, and signs in again back to the page asked for', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await heading(page, 'Account');
    await page.getByTestId('consent-terms').getByText(/^Granted/).waitFor();
    await page.getByRole('button', { name: 'Grant Marketing e-mail' }).click();
    await page.getByTestId('consent-marketing').getByText(/^Granted/).waitFor();
    await page.getByRole('button', { name: 'Withdraw Marketing e-mail' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8')) as { account: { email: string } };
    expect(exported.account.email).toBe(email);
    expect(JSON.stringify(exported)).not.toContain(secret);
    await screenshot(page, 'account');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Sign in');
    await page.goto('/dashboard/keys');
    await heading(page, 'Sign in');
    await page.waitForURL((url) => url.pathname === '/dashboard/sign-in' && url.search === `?next=${encodeURIComponent('/dashboard/keys')}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong-password-here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: /invalid/i }).waitFor();
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(page, 'API keys');
    await page.waitForURL((url) => url.pathname === '/dashboard/keys');
  });
});

describe('at 375 px wide', () => {
  it('no page scrolls sideways', async () => {
    const narrow = await browser.newContext({ viewport: { width: 375, height: 740 }, baseURL: stack.baseUrl, storageState: await context.storageState() });
    narrow.setDefaultTimeout(60_000);
    const signedOut = await browser.newContext({ viewport: { width: 375, height: 740 }, baseURL: stack.baseUrl });
    try {
      const mobile = await narrow.newPage();
      // How far the page scrolls sideways, and the elements reaching past the right edge (for the failure message).
      const overflow = (target: Page) =>
        target.evaluate(() => {
          const width = document.documentElement.clientWidth;
          const past = Array.from(document.querySelectorAll('body *'))
            .filter((el) => el.getBoundingClientRect().right > width + 0.5 && !el.parentElement?.closest('.table-wrap, .json'))
            .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
            .slice(0, 5);
          const by = document.documentElement.scrollWidth - width;
          return by === 0 ? 0 : `${by}px: ${past.join(', ')}`;
        });
      const pages: Array<[string, string]> = [
        ['/dashboard/usage', 'Usage'],
        ['/dashboard/keys', 'API keys'],
        ['/dashboard/runs', 'Runs'],
        ['/dashboard/flows', 'Flows'],
        ['/dashboard/sessions', 'Sessions'],
        ['/dashboard/monitors', 'Monitors'],
        ['/dashboard/billing', 'Billing'],
        ['/dashboard/notifications', 'Notifications'],
        ['/dashboard/account', 'Account'],
      ];
      const widths: Record<string, number | string> = {};
      for (const [href, title] of pages) {
        await visit(mobile, href, title);
        await mobile.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
        widths[href] = await overflow(mobile);
      }
      const runLink = mobile.locator('tr[data-run-id] a').first();
      await visit(mobile, '/dashboard/runs', 'Runs');
      await runLink.click();
      await heading(mobile, 'Run');
      await mobile.getByLabel('Result').waitFor();
      widths['/dashboard/runs/:id'] = await overflow(mobile);
      await visit(mobile, '/dashboard/usage', 'Usage');
      await mobile.locator('[data-chart="requests"] rect').first().waitFor();
      await screenshot(mobile, 'usage-375px');

      const out = await signedOut.newPage();
      await visit(out, '/dashboard/sign-in', 'Sign in');
      widths['/dashboard/sign-in'] = await overflow(out);

      expect(widths).toEqual(Object.fromEntries(Object.keys(widths).map((k) => [k, 0])));
    } finally {
      await narrow.close();
      await signedOut.close();
    }
  });
});

/** Awaits `waiting`; on failure adds what `explain` says (the API's view) to the error. */
async function explained(waiting: Promise<unknown>, explain: () => Promise<string>) {
  try {
    await waiting;
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${await explain().catch(String)}`);
  }
}

async function cookieHeader(): Promise<string> {
  const cookies = await context.cookies(stack.baseUrl);
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}
