/**
 * Main-content extraction benchmark: token F1 of each extractor against the expected article
 * text, per set (readability test pages, Zyte article-extraction-benchmark, and the locally
 * imported sets: modern page kinds, DAnIEL languages, CleanPortalEval) and split (dev,
 * held-out). README.md in this folder describes the data and the scoring.
 *   npm run bench:extraction                 all pages
 *   npm run bench:extraction -- --split dev  only the development split (while tuning)
 *   npm run bench:extraction -- --sets zyte,daniel-zh   only these sets
 *   npm run bench:extraction -- --pages      also print per-page F1 of each extractor
 *   npm run bench:extraction -- --jsdom      also Readability on jsdom (slow: about 1 s a page)
 *   npm run bench:extraction -- --baseline <git revision>   also the extractor of that revision
 *       (scrape/main-content.ts as committed there), as "ours@<revision>", in the same run
 *   npm run bench:extraction -- --trafilatura /path/to/python   also score trafilatura (reference
 *       only, never a product dependency: a venv with `pip install trafilatura lxml_html_clean`)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { parseHTML } from 'linkedom';
import { extractMainContent } from '../../scrape/main-content';
import { loadPages, zyteTrafilatura, type Page, type SplitName } from './pages';
import { htmlToText, macro, scoreTokens, tokenize, type PageScore } from './score';

type Extractor = (page: Page) => string | null; // the extracted text, or null

const args = process.argv.slice(2);
const option = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const onlySplit = option('--split') as SplitName | undefined;
const perPage = args.includes('--pages');
const only = option('--only')?.split(',');
const onlySets = option('--sets')?.split(',');
const python = option('--trafilatura');
const baseline = option('--baseline');

/** Readability's text, its title first where the set's expected text has the heading. */
function readabilityText(article: { title?: string | null; content?: string | null } | null, p: Page): string | null {
  if (!article?.content) return null;
  return `${p.headingExpected && article.title ? `${article.title}\n` : ''}${htmlToText(article.content)}`;
}

const quietConsole = new VirtualConsole();
const extractors: Record<string, Extractor> = {
  ...(args.includes('--jsdom')
    ? {
        'readability+jsdom': (p: Page) => {
          const dom = new JSDOM(p.html, { url: p.url, virtualConsole: quietConsole });
          const article = new Readability(dom.window.document).parse();
          dom.window.close();
          return readabilityText(article, p);
        },
      }
    : {}),
  'readability+linkedom': (p) => readabilityText(new Readability(parseHTML(p.html).document).parse(), p),
  // The product's output: the heading in the content unless the set's annotation leaves it out.
  ours: (p) => {
    const html = extractMainContent(p.html, p.url, { heading: p.headingExpected });
    return html === null ? null : htmlToText(html);
  },
  ...baselineExtractor(),
};

/**
 * The extractor of another revision (`--baseline <rev>`): scrape/main-content.ts, or the folder
 * scrape/main-content/, as committed there, copied beside this file (git ignores the copy) so that
 * its imports resolve the same packages.
 */
function baselineExtractor(): Record<string, Extractor> {
  if (!baseline) return {};
  const git = (...a: string[]): Buffer => execFileSync('git', a, { cwd: __dirname, stdio: ['ignore', 'pipe', 'ignore'] });
  const dir = path.join(__dirname, '.baseline-main-content');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  let files: string[] = [];
  try {
    files = git('ls-tree', '--full-tree', '--name-only', `${baseline}:scrape/main-content/`).toString().split('\n').filter((f) => f.endsWith('.ts'));
  } catch {
    // a revision from before the folder: one file
  }
  if (files.length > 0) for (const f of files) writeFileSync(path.join(dir, f), git('show', `${baseline}:scrape/main-content/${f}`));
  else writeFileSync(path.join(dir, 'index.ts'), git('show', `${baseline}:scrape/main-content.ts`));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at run time from the revision asked
  const old = require(path.join(dir, 'index.ts')) as { extractMainContent: (html: string, url: string, options?: { heading?: boolean }) => string | null };
  // Loaded (with its own imports): the copy goes, so that no linter or compiler finds it.
  rmSync(dir, { recursive: true, force: true });
  return {
    [`ours@${baseline}`]: (p) => {
      const html = old.extractMainContent(p.html, p.url, { heading: p.headingExpected });
      return html === null ? null : htmlToText(html);
    },
  };
}

/** trafilatura on every page, in one Python process (bench/extraction/run-trafilatura.py). */
function runTrafilatura(pages: Page[]): Map<string, { text: string | null; ms: number }> {
  const input = pages.map((p) => JSON.stringify({ name: `${p.set}/${p.name}`, url: p.url, html: p.html })).join('\n');
  const out = spawnSync(python!, [path.join(__dirname, 'run-trafilatura.py')], { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`trafilatura failed: ${out.stderr}`);
  const rows = out.stdout.trim().split('\n').map((l) => JSON.parse(l) as { name: string; text: string | null; ms: number });
  return new Map(rows.map((r) => [r.name, { text: r.text, ms: r.ms }]));
}

interface Cell { scores: PageScore[]; nulls: number; ms: number[] }
const quantile = (xs: number[], q: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};

function main(): void {
  const pages = loadPages().filter((p) => (!onlySplit || p.split === onlySplit) && (!onlySets || onlySets.includes(p.set)));
  const traf = zyteTrafilatura();
  const trafRun = python ? runTrafilatura(pages) : undefined;
  const cells = new Map<string, Cell>(); // key: set/split/extractor
  const cell = (k: string): Cell => { let c = cells.get(k); if (!c) { c = { scores: [], nulls: 0, ms: [] }; cells.set(k, c); } return c; };
  const pageRows: string[] = [];
  const names = Object.keys(extractors).filter((n) => !only || only.includes(n));
  // Warm up each extractor once (JIT, lazy module loading) so the first page's time is not an outlier.
  for (const n of names) extractors[n]!(pages[0]!);
  for (const page of pages) {
    const expected = tokenize(page.expected);
    const row: string[] = [];
    for (const name of names) {
      const t0 = performance.now();
      let text: string | null;
      try { text = extractors[name]!(page); } catch { text = null; }
      const ms = performance.now() - t0;
      const c = cell(`${page.set}/${page.split}/${name}`);
      const s = scoreTokens(text === null ? [] : tokenize(text), expected);
      c.scores.push(s); c.ms.push(ms); if (text === null) c.nulls++;
      row.push(`${name}=${s.f1.toFixed(3)}`);
    }
    const t = trafRun?.get(`${page.set}/${page.name}`);
    if (t) {
      const c = cell(`${page.set}/${page.split}/trafilatura (python, reference)`);
      const s = scoreTokens(t.text === null ? [] : tokenize(t.text), expected);
      c.scores.push(s); c.ms.push(t.ms); if (t.text === null) c.nulls++;
      row.push(`trafilatura=${s.f1.toFixed(3)}`);
    }
    if (page.set === 'zyte' && traf.has(page.name)) {
      const c = cell(`${page.set}/${page.split}/trafilatura 2.0.0 (stored output)`);
      const text = traf.get(page.name)!;
      c.scores.push(scoreTokens(tokenize(text), expected)); if (!text) c.nulls++;
    }
    if (perPage) pageRows.push(`${page.set}/${page.split}/${page.name}: ${row.join(' ')}`);
  }
  const lines = ['| set | split | pages | extractor | F1 | precision | recall | null | ms p50 | ms p95 |', '|---|---|---|---|---|---|---|---|---|---|'];
  for (const [key, c] of [...cells].sort(([a], [b]) => a.localeCompare(b))) {
    const [set, split, name] = key.split('/');
    const m = macro(c.scores);
    const t = c.ms.length ? `${quantile(c.ms, 0.5).toFixed(1)} | ${quantile(c.ms, 0.95).toFixed(1)}` : '– | –';
    lines.push(`| ${set} | ${split} | ${c.scores.length} | ${name} | ${m.f1.toFixed(3)} | ${m.precision.toFixed(3)} | ${m.recall.toFixed(3)} | ${c.nulls} | ${t} |`);
  }
  // Every page of every set pooled, per extractor: the time figures of small sets are too noisy alone.
  for (const name of [...new Set([...cells.keys()].map((k) => k.split('/')[2]!))].sort()) {
    const ms = [...cells].filter(([k]) => k.endsWith(`/${name}`)).flatMap(([, c]) => c.ms);
    if (ms.length > 0) lines.push(`| all | all | ${ms.length} | ${name} | – | – | – | – | ${quantile(ms, 0.5).toFixed(1)} | ${quantile(ms, 0.95).toFixed(1)} |`);
  }
  if (perPage) console.log(pageRows.join('\n'));
  const report = lines.join('\n');
  console.log(report);
  if (!onlySplit && !only && !onlySets) {
    mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    writeFileSync(path.join(__dirname, 'results', 'latest.md'), `${report}\n`);
  }
}

main();
