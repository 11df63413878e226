/**
 * How http mode looks on the wire (docs/scraping.md "How we look to a site", "http mode"), end to
 * end: real API and worker processes, Temporal, PostgreSQL, and a local TLS server that reads
 * what a fingerprinting edge reads (test/fixtures/tls-fingerprint.ts). The shipped Chromium is
 * launched here against the same server, and http mode's ClientHello, HTTP/2 preface and header
 * order are compared with its own. Also: NODE_EXTRA_CA_CERTS and skip_tls_verification.
 */
import { chromium } from 'playwright-core';
import { defaultChromiumPath } from '../../platform/config';
import { type FingerprintRecord, type TlsFingerprintServer, startTlsFingerprintServer } from '../../test/fixtures/tls-fingerprint';
import { type TestAccount, createAccount, setBalance } from '../../test/helpers/accounts';
import { type Stack, startStack } from '../../test/helpers/stack';

let stack: Stack;
/** Its certificate is the worker's NODE_EXTRA_CA_CERTS. */
let trusted: TlsFingerprintServer;
/** RFC 8701's GREASE values: 0x0a0a, 0x1a1a, ... 0xfafa. */
const isGrease = (hex: string) => /^([0-9a-f])a\1a$/.test(hex);
/** A certificate nobody trusts. */
let untrusted: TlsFingerprintServer;
let account: TestAccount;
let chromiumRecord: FingerprintRecord;

const CHROMIUM = process.env.CHROMIUM_PATH ?? defaultChromiumPath();

beforeAll(async () => {
  trusted = await startTlsFingerprintServer();
  untrusted = await startTlsFingerprintServer();
  // The TLS relay is on by default (HTTP_TLS_RELAY; built by scripts/setup.cjs): no setting here.
  stack = await startStack({ env: { NODE_EXTRA_CA_CERTS: trusted.caFile } });
  account = await createAccount(stack.baseUrl);
  await setBalance(stack.databaseUrl, account.userId, 1_000);
  // What the shipped Chromium presents to the same server, with a language list as a person's
  // browser has (--accept-lang: Chromium places the header itself; Playwright's `locale` would add it as an extra header).
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--accept-lang=en-US,en'] });
  try {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await page.goto(`${trusted.url}/chromium`);
  } finally {
    await browser.close();
  }
  chromiumRecord = trusted.records.find((r) => r.path === '/chromium')!;
  // Starting the stack on a loaded two-core machine can take more than jest's default.
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await trusted?.close();
  await untrusted?.close();
});

async function scrape(body: Record<string, unknown>) {
  const res = await fetch(`${stack.baseUrl}/webhook/unblocker`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
    body: JSON.stringify({ options: { retry_count: 0 }, ...body }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { error?: string; code?: string } };
}

describe('http mode on the wire', () => {
  let ours: FingerprintRecord;

  beforeAll(async () => {
    // Trusted through NODE_EXTRA_CA_CERTS only (no skip_tls_verification).
    const { status, body } = await scrape({ url: `${trusted.url}/http-mode`, formats: ['html'] });
    expect({ status, error: body.error }).toEqual({ status: 200, error: undefined });
    expect(body.html).toContain('Fingerprint recorded');
    ours = trusted.records.find((r) => r.path === '/http-mode')!;
  });

  it('presents the shipped Chromium TLS ClientHello: the same JA4, GREASE in ciphers, extensions and signature algorithms, ALPN h2', () => {
    expect(chromiumRecord.tls.ja4).toMatch(/^t13i\d{4}h2_/);
    // Through the TLS relay (deploy/tls-relay): the signature algorithms are Chromium's too (ML-DSA, a GREASE one first).
    expect(ours.tls.ja4).toBe(chromiumRecord.tls.ja4);
    expect(ours.tls.ja4r).toBe(chromiumRecord.tls.ja4r);
    expect({ grease: ours.tls.grease, signatureAlgorithmGrease: ours.tls.signatureAlgorithmGrease }).toEqual({ grease: true, signatureAlgorithmGrease: true });
    expect(chromiumRecord.tls.signatureAlgorithmGrease).toBe(true);
    // Where Chromium puts GREASE: the first cipher suite, the first and last extensions, the first signature algorithm.
    const greaseAt = (r: FingerprintRecord) => ({
      firstCipher: isGrease(r.tls.ciphersInOrder[0]!),
      firstExtension: isGrease(r.tls.extensionsInOrder[0]!),
      lastExtension: isGrease(r.tls.extensionsInOrder[r.tls.extensionsInOrder.length - 1]!),
      firstSignatureAlgorithm: isGrease(r.tls.signatureAlgorithms[0]!),
    });
    expect(greaseAt(ours)).toEqual(greaseAt(chromiumRecord));
    expect(greaseAt(ours)).toEqual({ firstCipher: true, firstExtension: true, lastExtension: true, firstSignatureAlgorithm: true });
    expect(ours.tls.signatureAlgorithms.slice(1)).toEqual(chromiumRecord.tls.signatureAlgorithms.slice(1));
    expect(ours.tls.alpn).toEqual(chromiumRecord.tls.alpn);
  });

  it('sends the HTTP/2 preface of the shipped Chromium (SETTINGS, WINDOW_UPDATE, HEADERS priority, pseudo-header order)', () => {
    expect(ours.protocol).toBe('h2');
    expect(ours.http2!.akamai).toBe(chromiumRecord.http2!.akamai);
    expect(ours.http2!.pseudoHeaderOrder).toBe('m,a,s,p');
    // The HEADERS frame as Chromium sends it: exclusive on stream 0, weight 256; the same flags.
    expect(chromiumRecord.http2!.headersPriority).toBe('1:0:256');
    expect({ priority: ours.http2!.headersPriority, flags: ours.http2!.headersFlags }).toEqual({ priority: chromiumRecord.http2!.headersPriority, flags: chromiumRecord.http2!.headersFlags });
  });

  it('sends the header names of a Chromium navigation in its order, with client hints of its major version', () => {
    expect(ours.headerNames).toEqual(chromiumRecord.headerNames);
    const major = /Chrome\/(\d+)\./.exec(chromiumRecord.headers['user-agent']!)![1]!;
    expect(ours.headers['user-agent']).toMatch(new RegExp(`^Mozilla/5\\.0 \\(X11; Linux x86_64\\) AppleWebKit/537\\.36 \\(KHTML, like Gecko\\) Chrome/${major}\\.0\\.0\\.0 Safari/537\\.36$`));
    expect(ours.headers['sec-ch-ua']).toContain(`"Chromium";v="${major}"`);
    expect(ours.headers['sec-ch-ua']).toContain(`"Google Chrome";v="${major}"`);
    expect(ours.headers['sec-ch-ua']).not.toContain('Headless');
    expect(ours.headers['sec-ch-ua-platform']).toBe('"Linux"');
  });
});

describe('certificates', () => {
  it('trusts NODE_EXTRA_CA_CERTS in browser mode too (an NSS database of its own for Chromium)', async () => {
    const { status, body } = await scrape({ url: `${trusted.url}/browser-mode`, mode: 'browser', formats: ['html'] });
    expect({ status, error: body.error, message: body.message }).toEqual({ status: 200, error: undefined, message: undefined });
    expect(body.html).toContain('Fingerprint recorded');
  });

  it('refuses a certificate nobody trusts, in both modes', async () => {
    for (const mode of ['http', 'browser']) {
      const { status, body } = await scrape({ url: `${untrusted.url}/refused-${mode}`, mode });
      expect({ mode, status, code: body.code }).toEqual({ mode, status: 502, code: 'SCRAPE_FAILED' });
    }
    expect(untrusted.records.filter((r) => r.path.startsWith('/refused-'))).toEqual([]);
  });

  it('accepts it with skip_tls_verification, in both modes, and Firecrawl\'s skipTlsVerification', async () => {
    for (const mode of ['http', 'browser']) {
      const { status, body } = await scrape({ url: `${untrusted.url}/skipped-${mode}`, mode, skip_tls_verification: true, formats: ['html'] });
      expect({ mode, status, error: body.error }).toEqual({ mode, status: 200, error: undefined });
      expect(body.html).toContain('Fingerprint recorded');
    }
    const res = await fetch(`${stack.baseUrl}/v2/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${account.apiKey}` },
      body: JSON.stringify({ url: `${untrusted.url}/firecrawl`, skipTlsVerification: true, formats: ['html'] }),
    });
    const fc = (await res.json()) as { success: boolean; data?: { html?: string } };
    expect({ status: res.status, success: fc.success }).toEqual({ status: 200, success: true });
    expect(fc.data?.html).toContain('Fingerprint recorded');
    expect(untrusted.records.map((r) => r.path)).toEqual(expect.arrayContaining(['/skipped-http', '/skipped-browser', '/firecrawl']));
  });
});
