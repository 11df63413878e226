// Import of the benchmark's further sets (README.md in this folder: provenance, licences, why they
// are not committed) from local git copies of their public repositories into `data-local/`, which
// git ignores. Usage:
//   node --import tsx bench/extraction/import-local-sets.ts \
//     --modern <git dir of Murrough-Foley/web-content-extraction-benchmark (or its copy tiptopjaw/…)> \
//     --daniel <git dir of rundimeco/waddle> \
//     --portal <git dir of ppke-nlpg/CleanPortalEval> \
//     --l3s <git dir of geodrome/page-signal (holds the L3S-GN1 dataset)> \
//     --merged <git dir of j-szulc/html-cleaning-dataset-merged (CleanEval, Dragnet)> \
//     --htmltotext <git dir of leogao2/htmltotext-benchmark>
// Each set becomes one file `data-local/<source>.jsonl.br`: a JSON line per page with the page's raw
// bytes (base64, as the site served them: the bench decodes them as the product does), its URL,
// kind, language and expected text. Any subset of the four options may be given.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gunzipSync } from 'node:zlib';
import { parseHTML } from 'linkedom';
import { decodeHtml } from '../../scrape/charset';
import { htmlToText } from './score';

/** A page as stored in data-local (pages.ts reads it back). */
export interface LocalPage { name: string; url: string; kind: string; lang: string; html: string /* base64 */; expected: string }

/** DAnIEL: pages per language (of 350–480), picked by a hash of their name, to bound the run time. */
const DANIEL_PER_LANGUAGE = 120;
/** L3S-GN1: pages (of 621), picked by a hash of their name, likewise. */
const L3S_PAGES = 160;

const args = process.argv.slice(2);
const option = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const outDir = path.join(__dirname, 'data-local');
mkdirSync(outDir, { recursive: true });

const git = (dir: string, ...a: string[]): Buffer => execFileSync('git', ['--git-dir', dir, ...a], { maxBuffer: 1 << 30 });
const list = (dir: string, under: string): string[] => git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', under).toString().split('\n').filter(Boolean);
const commitOf = (dir: string): string => git(dir, 'rev-parse', 'HEAD').toString().trim();

function save(source: string, pages: LocalPage[], origin: string): void {
  const body = pages.map((p) => JSON.stringify(p)).join('\n');
  writeFileSync(path.join(outDir, `${source}.jsonl.br`), brotliCompressSync(Buffer.from(body), { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }));
  writeFileSync(path.join(outDir, `${source}.SOURCE`), `${origin}\n`);
  const kinds = new Map<string, number>();
  for (const p of pages) kinds.set(`${p.kind}/${p.lang}`, (kinds.get(`${p.kind}/${p.lang}`) ?? 0) + 1);
  console.log(`${source}: ${pages.length} pages`, Object.fromEntries(kinds));
}

// --- Murrough-Foley/web-content-extraction-benchmark: 1,000 pages of 2025–26, page kinds ---------
const modern = option('--modern');
if (modern) {
  const pages: LocalPage[] = [];
  for (const file of list(modern, 'benchmark/ground-truth')) {
    const id = /(\d+)\.json$/.exec(file)?.[1];
    if (!id) continue;
    const truth = JSON.parse(git(modern, 'show', `HEAD:${file}`).toString()) as {
      url: string; _internal?: { page_type?: { primary?: string } }; ground_truth: { main_content: string };
    };
    let raw: Buffer;
    try {
      raw = gunzipSync(git(modern, 'show', `HEAD:release/html/${id}.html.gz`));
    } catch {
      continue; // a ground truth without its page
    }
    const kind = truth._internal?.page_type?.primary ?? 'article';
    pages.push({ name: id, url: truth.url, kind, lang: 'en', html: raw.toString('base64'), expected: truth.ground_truth.main_content });
  }
  save('modern', pages, `https://github.com/Murrough-Foley/web-content-extraction-benchmark (copy read: tiptopjaw/web-content-extraction-benchmark) commit ${commitOf(modern)}: release/html/*.html.gz, benchmark/ground-truth/*.json (main_content, page_type); Apache-2.0`);
}

// --- DAnIEL corpus v2.1 (Lejeune & Zhu 2018), in rundimeco/waddle: news in 5 languages --------
const daniel = option('--daniel');
if (daniel) {
  const root = 'corpora/Corpus_daniel_v2.1';
  const languages = JSON.parse(git(daniel, 'show', `HEAD:${root}/doc_lg.json`).toString()) as Record<string, string>;
  const code: Record<string, string> = { English: 'en', Chinese: 'zh', Russian: 'ru', Greek: 'el', Polish: 'pl' };
  const references = new Set(list(daniel, `${root}/reference`).map((f) => path.basename(f)));
  const byLanguage = new Map<string, string[]>();
  for (const file of list(daniel, `${root}/html`)) {
    const name = path.basename(file);
    const lang = code[languages[name] ?? ''];
    if (!lang || !references.has(name)) continue;
    byLanguage.set(lang, [...(byLanguage.get(lang) ?? []), name]);
  }
  const pages: LocalPage[] = [];
  const rank = (name: string): string => createHash('sha256').update(`extraction-bench/daniel-pick/${name}`).digest('hex');
  for (const [lang, names] of byLanguage) {
    for (const name of names.sort((a, b) => rank(a).localeCompare(rank(b))).slice(0, DANIEL_PER_LANGUAGE)) {
      const raw = git(daniel, 'show', `HEAD:${root}/html/${name}`);
      // The references are UTF-8 text in <p> paragraphs (the title first).
      const expected = htmlToText(git(daniel, 'show', `HEAD:${root}/reference/${name}`).toString('utf8'));
      // Names are <date>_<host>_<hash>: the host is the page's site (the corpus keeps no full URL).
      const host = name.split('_')[1] ?? 'example.invalid';
      pages.push({ name, url: `http://${host}/`, kind: 'news', lang, html: raw.toString('base64'), expected });
    }
  }
  save('daniel', pages, `https://github.com/rundimeco/waddle commit ${commitOf(daniel)}: corpora/Corpus_daniel_v2.1/{html,reference}, doc_lg.json (${DANIEL_PER_LANGUAGE} pages per language by hash); GPL-3.0 (the repository's licence)`);
}

// --- CleanPortalEval (Endrédy & Novák 2013): 70 pages of 4 English news portals and blogs, CleanEval format -----------
const portal = option('--portal');
if (portal) {
  const pages: LocalPage[] = [];
  for (const file of list(portal, 'input')) {
    const m = /^input\/(.+)\.html?$/.exec(file);
    if (!m) continue;
    let gold: string;
    try {
      gold = git(portal, 'show', `HEAD:GoldStandard/${m[1]}.txt`).toString('utf8');
    } catch {
      continue;
    }
    // CleanEval format: a "URL: …" line, then text blocks opened by <p>, <h> or <l>.
    const url = /^\s*URL:\s*(\S+)/m.exec(gold)?.[1] ?? 'http://example.invalid/';
    const expected = gold.replace(/^\s*URL:.*$/m, '').replace(/<[phl]>/g, '\n').replace(/&#0?39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    pages.push({ name: m[1]!, url, kind: 'portal', lang: 'en', html: git(portal, 'show', `HEAD:${file}`).toString('base64'), expected });
  }
  save('portal', pages, `https://github.com/ppke-nlpg/CleanPortalEval commit ${commitOf(portal)}: input/*.html, GoldStandard/*.txt; no licence stated (evaluation use, not redistributed)`);
}

// --- L3S-GN1 (Kohlschütter et al., WSDM 2010): 621 English news pages of 408 sites (Google News, 2008) --------
// Read from geodrome/page-signal, which keeps the dataset's `original/` and `annotated/` pages. The
// annotated copy wraps each text block in <span class="x-nc-selN">: 1 headline, 2 full text,
// 3 supplemental (captions…), 4 related, 5 comments, 0 not content. Expected text: 1, 2 and 3, as
// the Webis benchmark (chatnoir-eu/web-content-extraction-benchmark) reads it.
const l3s = option('--l3s');
if (l3s) {
  const root = 'L3S-GN1-20100130203947-00001';
  const rank = (name: string): string => createHash('sha256').update(`extraction-bench/l3s-pick/${name}`).digest('hex');
  const names = list(l3s, `${root}/original`).map((f) => path.basename(f)).sort((a, b) => rank(a).localeCompare(rank(b))).slice(0, L3S_PAGES);
  const urls = new Map(git(l3s, 'show', `HEAD:${root}/url-mapping.txt`).toString().split('\n').map((l) => /^<urn:uuid:([^>]+)>\s+(\S+)/.exec(l)).filter((m) => m !== null).map((m) => [m[1]!, m[2]!]));
  const pages: LocalPage[] = [];
  for (const name of names) {
    const raw = git(l3s, 'show', `HEAD:${root}/original/${name}`);
    const annotated = parseHTML(decodeHtml(git(l3s, 'show', `HEAD:${root}/annotated/${name}`), 'text/html')).document;
    const kept = [...annotated.querySelectorAll('.x-nc-sel1, .x-nc-sel2, .x-nc-sel3')].filter((el) => !el.parentElement?.closest('.x-nc-sel1, .x-nc-sel2, .x-nc-sel3'));
    const expected = kept.map((el) => el.textContent ?? '').join('\n');
    const id = name.replace(/\.html$/, '');
    pages.push({ name: id, url: urls.get(id) ?? 'http://example.invalid/', kind: 'news', lang: 'en', html: raw.toString('base64'), expected });
  }
  save('l3s', pages, `https://github.com/geodrome/page-signal commit ${commitOf(l3s)}: ${root}/{original,annotated} (the L3S-GN1 dataset, ${L3S_PAGES} of 621 pages by hash; expected: x-nc-sel1..3); research use only (the dataset's Readme-L3S-GN1.txt), not redistributed`);
}

// --- CleanEval (Baroni et al., LREC 2008) and the Dragnet data (Peters & Lecocq 2013), read from the copy in
// j-szulc/html-cleaning-dataset-merged (the sites that served them are gone): `cleaneval-{dev,final}/{input,GoldStandard}`
// and `dragnet_data/{input,GoldStandard}`. CleanEval's pages are wrapped in `<text id="URL" title=… encoding=…>`
// (the shared task's format, not the site's): the wrapper is removed, the bytes are kept.
const CLEANEVAL_PAGES = 160;
const DRAGNET_PAGES = 160;
const merged = option('--merged');
if (merged) {
  const pick = (set: string, names: string[], n: number): string[] => {
    const rank = (name: string): string => createHash('sha256').update(`extraction-bench/${set}-pick/${name}`).digest('hex');
    return names.sort((a, b) => rank(a).localeCompare(rank(b))).slice(0, n);
  };
  const goldOf = (file: string): string | undefined => {
    try {
      return git(merged, 'show', `HEAD:${file}`).toString('utf8');
    } catch {
      return undefined;
    }
  };
  const inputs = (dir: string): string[] => list(merged, `${dir}/input`).map((f) => /([^/]+)\.html$/.exec(f)?.[1]).filter((n): n is string => n !== undefined);
  const clean: LocalPage[] = [];
  const cleanNames = [...inputs('cleaneval-dev').map((n) => `dev-${n}`), ...inputs('cleaneval-final').map((n) => `final-${n}`)];
  for (const name of pick('cleaneval', cleanNames, CLEANEVAL_PAGES * 2)) {
    if (clean.length >= CLEANEVAL_PAGES) break;
    const [part, id] = name.split('-') as [string, string];
    const gold = goldOf(`cleaneval-${part}/GoldStandard/${id}.txt`);
    if (gold === undefined) continue; // some final-set pages have no gold text
    const raw = git(merged, 'show', `HEAD:cleaneval-${part}/input/${id}.html`);
    const latin = raw.toString('latin1');
    const url = /^\s*<text id="([^"]*)"/.exec(latin)?.[1] ?? /^\s*URL:\s*(\S+)/m.exec(gold)?.[1] ?? 'http://example.invalid/';
    const html = Buffer.from(latin.replace(/^\s*<text [^>]*>/, '').replace(/<\/text>\s*$/, ''), 'latin1');
    const expected = gold.replace(/^\s*URL:.*$/m, '').replace(/<[phl]>/g, '\n').replace(/&#0?39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
    clean.push({ name, url, kind: 'web', lang: 'en', html: html.toString('base64'), expected });
  }
  save('cleaneval', clean, `https://github.com/j-szulc/html-cleaning-dataset-merged commit ${commitOf(merged)}: cleaneval-{dev,final}/{input,GoldStandard} (CleanEval 2007, Baroni, Chantree, Kilgarriff & Sharoff; ${CLEANEVAL_PAGES} pages by hash); no licence stated (evaluation use, not redistributed)`);

  const drag: LocalPage[] = [];
  for (const id of pick('dragnet', inputs('dragnet_data'), DRAGNET_PAGES * 2)) {
    if (drag.length >= DRAGNET_PAGES) break;
    const gold = goldOf(`dragnet_data/GoldStandard/${id}.txt`);
    if (gold === undefined) continue;
    // The gold text holds the article, then a "!@#$%^&*() COMMENTS" line and the comments: the main content is before it.
    const expected = gold.split(/^[^\n]*[$%^&*]{3}[^\n]*COMMENTS[^\n]*$/m)[0]!;
    drag.push({ name: id, url: 'http://example.invalid/', kind: 'news', lang: 'en', html: git(merged, 'show', `HEAD:dragnet_data/input/${id}.html`).toString('base64'), expected });
  }
  save('dragnet', drag, `https://github.com/j-szulc/html-cleaning-dataset-merged commit ${commitOf(merged)}: dragnet_data/{input,GoldStandard} (seomoz/dragnet_data, Peters & Lecocq 2013; ${DRAGNET_PAGES} pages by hash; the text before the COMMENTS mark); no licence stated in the copy (evaluation use, not redistributed)`);
}

// --- leogao2/htmltotext-benchmark: 28 pages transcribed by hand (2020), German, English, Croatian, Chinese; news, blogs,
// forums. Its guidelines keep comments, forum posts and their dates and user names (a forum's thread is content).
const htmltotext = option('--htmltotext');
if (htmltotext) {
  const pages: LocalPage[] = [];
  for (const file of list(htmltotext, 'benchmarkdata')) {
    const m = /^benchmarkdata\/([a-z]+)\/html\/(.+)\.html$/.exec(file);
    if (!m) continue;
    const [, lang, name] = m as unknown as [string, string, string];
    let expected: string;
    try {
      expected = git(htmltotext, 'show', `HEAD:benchmarkdata/${lang}/text/${name}.txt`).toString('utf8');
    } catch {
      continue;
    }
    pages.push({ name: `${lang}-${name}`, url: 'http://example.invalid/', kind: name.split('-')[0] ?? 'web', lang, html: git(htmltotext, 'show', `HEAD:${file}`).toString('base64'), expected });
  }
  save('htmltotext', pages, `https://github.com/leogao2/htmltotext-benchmark commit ${commitOf(htmltotext)}: benchmarkdata/<lang>/{html,text}; no licence stated (evaluation use, not redistributed)`);
}
