// The evaluation pages (README.md: provenance, split, licences).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { htmlToText } from './score';

export type SplitName = 'dev' | 'heldout';
export interface Page {
  set: 'readability' | 'zyte';
  name: string;
  split: SplitName;
  url: string;
  html: string;
  /** The expected article text. */
  expected: string;
}

const dataDir = path.join(__dirname, 'data');

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
    pages.push({ set: 'readability', name, split: splitOf('readability', name), url: 'http://fakehost/test/page.html', html, expected: htmlToText(expectedHtml) });
  }
  const zDir = path.join(dataDir, 'zyte');
  const truth = JSON.parse(brotliDecompressSync(readFileSync(path.join(zDir, 'ground-truth.json.br'))).toString('utf8')) as Record<string, { url: string; articleBody: string }>;
  for (const [name, item] of Object.entries(truth).sort(([a], [b]) => a.localeCompare(b))) {
    const html = gunzipSync(readFileSync(path.join(zDir, `${name}.html.gz`))).toString('utf8');
    pages.push({ set: 'zyte', name, split: splitOf('zyte', name), url: item.url || 'http://example.invalid/', html, expected: item.articleBody });
  }
  return pages;
}

/** The benchmark's stored trafilatura 2.0.0 output for the Zyte pages (name → article text). */
export function zyteTrafilatura(): Map<string, string> {
  const raw = JSON.parse(brotliDecompressSync(readFileSync(path.join(dataDir, 'zyte', 'trafilatura-output.json.br'))).toString('utf8')) as Record<string, unknown>;
  const output = (raw.output && typeof raw.output === 'object' ? raw.output : raw) as Record<string, { articleBody?: string }>;
  return new Map(Object.entries(output).map(([k, v]) => [k, v.articleBody ?? '']));
}
