import { AppError } from '../platform/errors';
import { parseScrapeRequest, scrapeCost } from './request';

/** Runs the parser and returns the AppError it throws (fails the test when it does not throw). */
function rejection(body: unknown): AppError {
  try {
    parseScrapeRequest(body);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(body)} to be rejected`);
}
const messagesOf = (body: unknown) => [rejection(body).messages].flat();

const URL_OK = 'https://example.com/page';

describe('parseScrapeRequest: valid requests', () => {
  it('applies defaults and normalises selectors to objects', () => {
    const req = parseScrapeRequest({ url: URL_OK, selectors: ['h1', { selector: 'a', attribute: 'href', all: true, name: 'links' }] });
    expect(req).toEqual({
      url: URL_OK,
      selectors: [
        { selector: 'h1', all: false },
        { selector: 'a', attribute: 'href', all: true, name: 'links' },
      ],
      mode: 'http',
      method: 'GET',
      capture_network: false,
      options: { retry_count: 2 },
      async: false,
    });
  });

  it('accepts a full browser request', () => {
    const req = parseScrapeRequest({
      url: 'http://example.com',
      mode: 'browser',
      capture_network: true,
      wait_for: '#app .ready',
      fill_form: { selector: 'form#login', fields: { '#user': 'me', '#remember': true, '#age': 42 }, submit: 'button[type=submit]' },
      headers: { 'Accept-Language': 'fr' },
      options: { retry_count: 0, timeout_ms: 50000 },
      async: true,
    });
    expect(req.mode).toBe('browser');
    expect(req.options).toEqual({ retry_count: 0, timeout_ms: 50000 });
    expect(req.fill_form?.fields['#age']).toBe(42);
  });

  it('accepts POST with a string or object body in http mode (method case-insensitive)', () => {
    expect(parseScrapeRequest({ url: URL_OK, method: 'post', body: { a: 1 } }).method).toBe('POST');
    expect(parseScrapeRequest({ url: URL_OK, method: 'POST', body: 'a=1' }).body).toBe('a=1');
  });

  it('accepts a Cookie header, cookies and a session in both modes', () => {
    const request = parseScrapeRequest({ url: 'http://example.com', mode: 'browser', headers: { Cookie: 'a=b' }, cookies: [{ name: 'sid', value: '1', domain: '.example.com' }], session: { name: 'login' } });
    expect(request).toMatchObject({ headers: { Cookie: 'a=b' }, cookies: [{ name: 'sid', value: '1', domain: '.example.com' }], session: { name: 'login', save: false } });
  });

  it('accepts the headers a scrape may set: a Cookie in http mode, a User-Agent and custom ones in both', () => {
    expect(parseScrapeRequest({ url: 'http://example.com', headers: { Cookie: 'a=b', 'User-Agent': 'me', 'X-Trace': '1' } }).headers).toEqual({ Cookie: 'a=b', 'User-Agent': 'me', 'X-Trace': '1' });
    expect(parseScrapeRequest({ url: 'http://example.com', mode: 'browser', headers: { 'User-Agent': 'me', Authorization: 'Bearer t' } }).headers).toEqual({ 'User-Agent': 'me', Authorization: 'Bearer t' });
  });

  it('accepts 50 selectors and capture_network: false in http mode', () => {
    expect(parseScrapeRequest({ url: URL_OK, selectors: new Array(50).fill('p') }).selectors).toHaveLength(50);
    expect(parseScrapeRequest({ url: URL_OK, capture_network: false }).capture_network).toBe(false);
  });
});

describe('parseScrapeRequest: 400 rules', () => {
  it.each([
    [{}, 'url is required'],
    [{ url: '' }, 'url is required'],
    [{ url: 42 }, 'url must be a string'],
    [{ url: 'ftp://example.com/file' }, 'url must be an absolute http(s) URL'],
    [{ url: 'javascript:alert(1)' }, 'url must be an absolute http(s) URL'],
    [{ url: '/relative/path' }, 'url must be an absolute http(s) URL'],
    [null, 'body must be an object'],
    [{ url: URL_OK, selectors: 'h1' }, 'selectors must be an array'],
    [{ url: URL_OK, selectors: new Array(51).fill('p') }, 'selectors must contain at most 50 items'],
    [{ url: URL_OK, selectors: [42] }, 'selectors.0 must be a CSS selector string or {selector, name?, attribute?, all?}'],
    [{ url: URL_OK, selectors: [{ name: 'x' }] }, 'selectors.0 must be a CSS selector string or {selector, name?, attribute?, all?}'],
    [{ url: URL_OK, mode: 'chrome' }, 'mode must be one of "http", "browser", "auto"'],
    [{ url: URL_OK, method: 'PUT' }, 'method must be one of "GET", "POST"'],
    [{ url: URL_OK, mode: 'browser', method: 'POST' }, 'method POST is not supported in browser mode (use fill_form to submit a form)'],
    [{ url: URL_OK, capture_network: true }, 'capture_network is only available in browser mode'],
    [{ url: URL_OK, mode: 'http', fill_form: { fields: { '#a': 'b' } } }, 'fill_form is only available in browser mode'],
    [{ url: URL_OK, wait_for: '#x' }, 'wait_for is only available in browser mode'],
    [{ url: URL_OK, body: 'x' }, 'body is only allowed with method POST'],
    [{ url: URL_OK, method: 'POST', body: 42 }, 'body must be a string or a JSON object'],
    [{ url: URL_OK, capture_network: 'yes', mode: 'browser' }, 'capture_network must be a boolean'],
    [{ url: URL_OK, headers: { 'X-A': 1 } }, 'headers.X-A must be a string'],
    [{ url: URL_OK, headers: { 'bad name': 'v' } }, 'headers.bad name is not a valid HTTP header name'],
    [{ url: URL_OK, headers: { 'X-A': 'a\r\nInjected: 1' } }, 'headers.X-A must not contain line breaks'],
    // Headers the engine sets itself are refused by name, never dropped in silence (scrape/headers.ts).
    [{ url: URL_OK, headers: { Connection: 'close' } }, 'headers.Connection is a hop-by-hop header (the engine manages its own connection to the target)'],
    [{ url: URL_OK, headers: { 'Transfer-Encoding': 'chunked' } }, 'headers.Transfer-Encoding is a hop-by-hop header (the engine frames the body itself)'],
    [{ url: URL_OK, mode: 'browser', headers: { upgrade: 'websocket' } }, 'headers.upgrade is a hop-by-hop header (a scrape cannot switch protocols)'],
    [{ url: URL_OK, headers: { Host: 'other.example' } }, 'headers.Host is set by the engine from the url'],
    [{ url: URL_OK, method: 'POST', body: 'x', headers: { 'content-length': '1' } }, 'headers.content-length is set by the engine from the body'],
    [{ url: URL_OK, headers: { 'Accept-Encoding': 'zstd' } }, 'headers.Accept-Encoding is set by the engine (it asks only for the encodings it decodes)'],
    [{ url: URL_OK, headers: { 'Proxy-Authorization': 'Basic eA==' } }, 'headers.Proxy-Authorization is for an outbound proxy, which the service configures (PROXY_URLS), not the request'],
    [{ url: URL_OK, mode: 'browser', headers: { Cookie2: 'a=b' } }, 'headers.Cookie2 cannot be sent by the browser (Chromium refuses it)'],
    [{ url: URL_OK, mode: 'browser', headers: { 'Sec-Fetch-Site': 'none' } }, 'headers.Sec-Fetch-Site is set by the browser itself in browser mode (use http mode to send your own)'],
    [{ url: URL_OK, cookies: [{ name: 'a b', value: 'x' }] }, 'cookies.0.name must be a cookie name (letters, digits and !#$%&\'*+.^_`|~-)'],
    [{ url: URL_OK, cookies: [{ name: 'a', value: 'x;y' }] }, 'cookies.0.value must not contain spaces, quotes, commas, semicolons, backslashes or control characters'],
    [{ url: URL_OK, session: { name: 'has space' } }, 'session.name must be 1 to 100 letters, digits, "-" or "_"'],
    [{ url: URL_OK, mode: 'browser', fill_form: { fields: {} } }, 'fill_form.fields must name at least one field'],
    [{ url: URL_OK, mode: 'browser', fill_form: { selector: 'form' } }, 'fill_form.fields is required'],
    [{ url: URL_OK, options: { retry_count: 11 } }, 'options.retry_count must be at most 10'],
    [{ url: URL_OK, options: { retry_count: -1 } }, 'options.retry_count must be at least 0'],
    [{ url: URL_OK, options: { retry_count: 1.5 } }, 'options.retry_count must be an integer'],
    [{ url: URL_OK, options: { timeout_ms: 'soon' } }, 'options.timeout_ms must be an integer'],
    [{ url: URL_OK, options: { timeout_ms: 50001 } }, 'options.timeout_ms must be at most 50000'],
    [{ url: URL_OK, async: 'true' }, 'async must be a boolean'],
    [{ url: URL_OK, captureNetwork: true }, 'captureNetwork is not allowed'],
  ])('%j → %s', (body, message) => {
    const err = rejection(body);
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.status).toBe(400);
    expect([err.messages].flat()).toContain(message);
  });

  it('a single problem gives a string message, several give an array with all of them', () => {
    expect(rejection({}).messages).toBe('url is required');
    const many = messagesOf({ mode: 'browser', method: 'POST', selectors: [1], options: { retry_count: 99 } });
    expect(many).toEqual(
      expect.arrayContaining([
        'url is required',
        'method POST is not supported in browser mode (use fill_form to submit a form)',
        'options.retry_count must be at most 10',
      ]),
    );
    expect(Array.isArray(rejection({ mode: 'browser', method: 'POST' }).messages)).toBe(true);
  });

  it('rejects invalid CSS anywhere with INVALID_SELECTOR (400) naming the selector', () => {
    const cases: unknown[] = [
      { url: URL_OK, selectors: ['h1', { selector: 'a[[' }] },
      { url: URL_OK, mode: 'browser', wait_for: 'a[[' },
      { url: URL_OK, mode: 'browser', fill_form: { fields: { 'a[[': 'x' } } },
      { url: URL_OK, mode: 'browser', fill_form: { fields: { '#a': 'x' }, submit: 'a[[' } },
    ];
    for (const body of cases) {
      const err = rejection(body);
      expect(err).toMatchObject({ code: 'INVALID_SELECTOR', status: 400 });
      expect(err.message).toContain('a[[');
    }
  });
});

describe('scrapeCost', () => {
  it('prices http 1, browser 5, capture_network +1', () => {
    expect(scrapeCost(parseScrapeRequest({ url: URL_OK }))).toBe(1);
    expect(scrapeCost(parseScrapeRequest({ url: URL_OK, mode: 'browser' }))).toBe(5);
    expect(scrapeCost(parseScrapeRequest({ url: URL_OK, mode: 'browser', capture_network: true }))).toBe(6);
  });
});

describe('actions (docs/scraping.md "Actions")', () => {
  it('normalises the actions (defaults applied) and prices each screenshot action like the screenshot format', () => {
    const req = parseScrapeRequest({
      url: URL_OK,
      mode: 'browser',
      formats: ['screenshot'],
      actions: [{ type: 'click', selector: '#more' }, { type: 'scroll' }, { type: 'screenshot' }, { type: 'screenshot', fullPage: true }],
    });
    expect(req.actions).toEqual([
      { type: 'click', selector: '#more', all: false },
      { type: 'scroll', direction: 'down' },
      { type: 'screenshot', fullPage: false },
      { type: 'screenshot', fullPage: true },
    ]);
    expect(scrapeCost(req)).toBe(5 + 1 + 2);
  });

  it('holds the waits together to one attempt: timeout_ms, else the default share for the retry_count', () => {
    const wait = (milliseconds: number) => ({ type: 'wait', milliseconds });
    expect(parseScrapeRequest({ url: URL_OK, mode: 'browser', options: { timeout_ms: 5000 }, actions: [wait(2000), wait(2999)] }).actions).toHaveLength(2);
    expect(messagesOf({ url: URL_OK, mode: 'browser', options: { timeout_ms: 5000 }, actions: [wait(2000), wait(3000)] })[0]).toMatch(/^actions waits add up to 5000 ms/);
    // retry_count 0: one attempt has (50 s - 1 s) to itself; retry_count 2: about a third of it.
    expect(parseScrapeRequest({ url: URL_OK, mode: 'browser', options: { retry_count: 0 }, actions: [wait(40_000)] }).actions).toHaveLength(1);
    expect(messagesOf({ url: URL_OK, mode: 'browser', actions: [wait(20_000)] })[0]).toMatch(/budget of 16083 ms/);
    // A wait for a selector counts nothing: it ends when the selector appears.
    expect(parseScrapeRequest({ url: URL_OK, mode: 'browser', actions: [{ type: 'wait', selector: '#x' }] }).actions).toHaveLength(1);
  });

  it('refuses a wait with both or neither of milliseconds and selector, and every broken rule at once', () => {
    expect(messagesOf({ url: URL_OK, mode: 'browser', actions: [{ type: 'wait' }] })).toEqual(['actions.0 must give either milliseconds or selector (one of them)']);
    expect(messagesOf({ url: URL_OK, mode: 'browser', actions: [{ type: 'wait', milliseconds: 5, selector: 'a' }] })).toEqual(['actions.0 must give either milliseconds or selector (one of them)']);
    expect(messagesOf({ url: URL_OK, actions: [{ type: 'write' }], mobile: true })).toEqual(
      expect.arrayContaining(['actions is only available in browser mode', 'mobile is only available in browser mode', expect.stringMatching(/^actions\.0\.text /)]),
    );
  });
});
