// One-off import of the evaluation pages from local git mirrors of the two source repositories
// (see README.md in this folder for provenance and licences). Usage:
//   node --import tsx bench/extraction/import-pages.ts <mozilla/readability git dir> <scrapinghub/article-extraction-benchmark git dir>
// Pages are stored compressed (brotli; the Zyte pages keep their original gzip) to keep the repository small.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

// Readability test pages whose source.html is below this size are synthetic unit tests of one
// rule (a few paragraphs), not web pages: they say nothing about real-world extraction.
const MIN_SOURCE_BYTES = 10_000;

const here = __dirname;
const [readabilityGit, zyteGit] = process.argv.slice(2);
if (!readabilityGit || !zyteGit) throw new Error('usage: import-pages.ts <readability git dir> <zyte benchmark git dir>');

const git = (dir: string, ...args: string[]): Buffer => execFileSync('git', ['--git-dir', dir, ...args], { maxBuffer: 1 << 30 });
const br = (data: Buffer): Buffer => brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });

// --- mozilla/readability test/test-pages
const rOut = path.join(here, 'data', 'readability');
rmSync(rOut, { recursive: true, force: true });
mkdirSync(rOut, { recursive: true });
const rCommit = git(readabilityGit, 'rev-parse', 'HEAD').toString().trim();
const listing = git(readabilityGit, 'ls-tree', '-r', '-l', 'HEAD', 'test/test-pages').toString().trim().split('\n');
let kept = 0;
for (const line of listing) {
  const m = /^\S+ blob \S+\s+(\d+)\ttest\/test-pages\/([^/]+)\/source\.html$/.exec(line);
  if (!m || Number(m[1]) < MIN_SOURCE_BYTES) continue;
  const name = m[2]!;
  writeFileSync(path.join(rOut, `${name}.source.html.br`), br(git(readabilityGit, 'show', `HEAD:test/test-pages/${name}/source.html`)));
  writeFileSync(path.join(rOut, `${name}.expected.html.br`), br(git(readabilityGit, 'show', `HEAD:test/test-pages/${name}/expected.html`)));
  kept++;
}
writeFileSync(path.join(rOut, 'SOURCE'), `https://github.com/mozilla/readability commit ${rCommit}, test/test-pages/*/{source,expected}.html (source.html >= ${MIN_SOURCE_BYTES} bytes), Apache-2.0\n`);

// --- scrapinghub/article-extraction-benchmark
const zOut = path.join(here, 'data', 'zyte');
rmSync(zOut, { recursive: true, force: true });
mkdirSync(zOut, { recursive: true });
const zCommit = git(zyteGit, 'rev-parse', 'HEAD').toString().trim();
const truth = JSON.parse(git(zyteGit, 'show', 'HEAD:ground-truth.json').toString()) as Record<string, { articleBody?: string; url?: string }>;
const slim: Record<string, { url: string; articleBody: string }> = {};
for (const [id, item] of Object.entries(truth)) {
  slim[id] = { url: item.url ?? '', articleBody: item.articleBody ?? '' };
  writeFileSync(path.join(zOut, `${id}.html.gz`), git(zyteGit, 'show', `HEAD:html/${id}.html.gz`));
}
writeFileSync(path.join(zOut, 'ground-truth.json.br'), br(Buffer.from(JSON.stringify(slim))));
// The benchmark's stored trafilatura 2.0.0 output: a reference score without installing Python.
const traf = JSON.parse(git(zyteGit, 'show', 'HEAD:output/trafilatura.json').toString()) as { version?: string; output?: Record<string, { articleBody?: string }> } & Record<string, unknown>;
writeFileSync(path.join(zOut, 'trafilatura-output.json.br'), br(Buffer.from(JSON.stringify(traf))));
writeFileSync(path.join(zOut, 'SOURCE'), `https://github.com/scrapinghub/article-extraction-benchmark commit ${zCommit}: html/*.html.gz, ground-truth.json (articleBody, url), output/trafilatura.json; MIT\n`);
console.log(`readability pages: ${kept}; zyte pages: ${Object.keys(slim).length}`);
