// The evaluation pages (README.md: provenance, split, licences).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { decodeHtml } from '../../scrape/charset';
import type { LocalPage } from './import-local-sets';
import { htmlToText } from './score';

export type SplitName = 'dev' | 'heldout';
export interface Page {
  /** readability, zyte, or a set of data-local (modern-<kind>, daniel-<language>, portal, l3s, cleaneval, dragnet, htmltotext). */
  set: string;
  name: string;
  split: SplitName;
  url: string;
  html: string;
  /** The expected article text. */
  expected: string;
  /**
   * Whether the expected text opens with the page's heading (the annotators kept it): the
   * extractors' heading is then scored with their content, else left out (Zyte's articleBody,
   * Readability's expected.html and the modern set's main_content leave the headline out).
   */
  headingExpected: boolean;
}

const dataDir = path.join(__dirname, 'data');
/** The further sets, imported locally by import-local-sets.ts (git ignores them: README.md says why). */
const localDir = path.join(__dirname, 'data-local');

/** Modern pages scored per kind (of 70–450 each), picked by a hash of their name: bounds the run time. */
const MODERN_PER_KIND = 60;
/** The modern set's page kinds, grouped: blog with article, collection with listing. */
const MODERN_KIND: Record<string, string> = { article: 'article', blog: 'article', forum: 'forum', product: 'product', service: 'service', documentation: 'docs', listing: 'listing', collection: 'listing' };

/**
 * Deterministic split: the first byte of sha256("extraction-bench/" + set + "/" + name); below
 * 128 is development, the rest held out (about half each). Changing the salt reshuffles the
 * split, which would leak held-out pages into tuning: never change it.
 */
export function splitOf(set: string, name: string): SplitName {
  const byte = createHash('sha256').update(`extraction-bench/${set}/${name}`).digest()[0]!;
  return byte < 128 ? 'dev' : 'heldout';
}

export function loadPages(): Page[] {
  const pages: Page[] = [];
  const rDir = path.join(dataDir, 'readability');
  for (const file of readdirSync(rDir).sort()) {
    const m = /^(.+)\.source\.html\.br$/.exec(file);
    if (!m) continue;
    const name = m[1]!;
    const html = brotliDecompressSync(readFileSync(path.join(rDir, file))).toString('utf8');
    const expectedHtml = brotliDecompressSync(readFileSync(path.join(rDir, `${name}.expected.html.br`))).toString('utf8');
    // The URL readability's own test-suite parses these pages with.
    pages.push({ set: 'readability', name, split: splitOf('readability', name), url: 'http://fakehost/test/page.html', html, expected: htmlToText(expectedHtml), headingExpected: false });
  }
  const zDir = path.join(dataDir, 'zyte');
  const truth = JSON.parse(brotliDecompressSync(readFileSync(path.join(zDir, 'ground-truth.json.br'))).toString('utf8')) as Record<string, { url: string; articleBody: string }>;
  for (const [name, item] of Object.entries(truth).sort(([a], [b]) => a.localeCompare(b))) {
    const html = gunzipSync(readFileSync(path.join(zDir, `${name}.html.gz`))).toString('utf8');
    pages.push({ set: 'zyte', name, split: splitOf('zyte', name), url: item.url || 'http://example.invalid/', html, expected: item.articleBody, headingExpected: false });
  }
  return [...pages, ...loadLocalPages()];
}

function readLocal(source: string): LocalPage[] {
  const file = path.join(localDir, `${source}.jsonl.br`);
  if (!existsSync(file)) {
    console.error(`(set ${source} not imported: bench/extraction/README.md says how)`);
    return [];
  }
  return brotliDecompressSync(readFileSync(file)).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LocalPage);
}

/** The page's text as the http engine makes it of the bytes served without a charset. */
const decoded = (p: LocalPage): string => decodeHtml(Buffer.from(p.html, 'base64'), 'text/html');

function loadLocalPages(): Page[] {
  const pages: Page[] = [];
  const rank = (name: string): string => createHash('sha256').update(`extraction-bench/modern-pick/${name}`).digest('hex');
  const perKind = new Map<string, number>();
  for (const p of readLocal('modern').sort((a, b) => rank(a.name).localeCompare(rank(b.name)))) {
    const set = `modern-${MODERN_KIND[p.kind] ?? 'other'}`;
    const n = perKind.get(set) ?? 0;
    if (n >= MODERN_PER_KIND) continue;
    perKind.set(set, n + 1);
    pages.push({ set, name: p.name, split: splitOf('modern', p.name), url: p.url, html: decoded(p), expected: p.expected, headingExpected: false });
  }
  for (const p of readLocal('daniel')) {
    pages.push({ set: `daniel-${p.lang}`, name: p.name, split: splitOf('daniel', p.name), url: p.url, html: decoded(p), expected: p.expected, headingExpected: true });
  }
  for (const p of readLocal('portal')) {
    pages.push({ set: 'portal', name: p.name, split: splitOf('portal', p.name), url: p.url, html: decoded(p), expected: p.expected, headingExpected: true });
  }
  for (const p of readLocal('l3s')) {
    pages.push({ set: 'l3s', name: p.name, split: splitOf('l3s', p.name), url: p.url, html: decoded(p), expected: p.expected, headingExpected: true });
  }
  // Issue 38's third pass: pages unlike the others (CleanEval's web pages of 2006 of every kind, Dragnet's news and
  // blogs of 2012, hand-transcribed German, Croatian, English and Chinese pages of 2020). Their gold texts keep the
  // page's heading.
  for (const source of ['cleaneval', 'dragnet', 'htmltotext']) {
    for (const p of readLocal(source)) {
      pages.push({ set: source, name: p.name, split: splitOf(source, p.name), url: p.url, html: decoded(p), expected: p.expected, headingExpected: true });
    }
  }
  return pages.sort((a, b) => a.set.localeCompare(b.set) || a.name.localeCompare(b.name));
}

/** The benchmark's stored trafilatura 2.0.0 output for the Zyte pages (name → article text). */
export function zyteTrafilatura(): Map<string, string> {
  const raw = JSON.parse(brotliDecompressSync(readFileSync(path.join(dataDir, 'zyte', 'trafilatura-output.json.br'))).toString('utf8')) as Record<string, unknown>;
  const output = (raw.output && typeof raw.output === 'object' ? raw.output : raw) as Record<string, { articleBody?: string }>;
  return new Map(Object.entries(output).map(([k, v]) => [k, v.articleBody ?? '']));
}
