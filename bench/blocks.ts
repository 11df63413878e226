/**
 * What the block-page classifier (scrape/blocks.ts) costs per answer, against a no-op baseline in
 * the same run, and its false-positive and detection figures:
 *   - every page of the real-page corpus (bench/extraction/data: 275 committed pages, plus the
 *     data-local sets when imported) classified at 200 (what a real page answers) and at 403 and
 *     404 (a real error page of the same size), BENCH_ROUNDS times each; the baseline runs the
 *     same loop with a function that only reads the status;
 *   - the captured block pages (test/fixtures/block-pages) at their status and headers, the same way.
 * CPU time per call from process.cpuUsage (user + system) around each loop; the loops alternate
 * (baseline, classifier, baseline, classifier) so a change in the shared machine's load hits both.
 *   npm run bench:blocks      BENCH_ROUNDS=N (default 20)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BLOCK_VENDORS, type TargetAnswer, classifyBlock } from '../scrape/blocks';
import { loadPages } from './extraction/pages';

const rounds = Number(process.env.BENCH_ROUNDS ?? '20');
const fixtureDir = path.join(__dirname, '..', 'test', 'fixtures', 'block-pages');

interface Fixture {
  file: string;
  vendor: string;
  status: number;
  headers: Record<string, string>;
}

function cpuMicros(answers: readonly TargetAnswer[], classify: (a: TargetAnswer) => unknown): number {
  const start = process.cpuUsage();
  let sink = 0;
  for (let r = 0; r < rounds; r++) for (const answer of answers) if (classify(answer)) sink++;
  const used = process.cpuUsage(start);
  if (sink < 0) console.log(sink);
  return (used.user + used.system) / (rounds * answers.length);
}

/** The baseline: a call that reads the answer's status and nothing else. */
const noop = (answer: TargetAnswer) => answer.status === -1;

function measure(label: string, answers: readonly TargetAnswer[]): void {
  const base: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < 2; i++) {
    base.push(cpuMicros(answers, noop));
    ours.push(cpuMicros(answers, classifyBlock));
  }
  const b = Math.min(...base);
  const o = Math.min(...ours);
  console.log(`| ${label} | ${answers.length} | ${b.toFixed(2)} | ${o.toFixed(2)} | ${(o - b).toFixed(2)} |`);
}

const pages = loadPages();
const chars = pages.reduce((n, p) => n + p.html.length, 0);
const asAnswers = (status: number): TargetAnswer[] => pages.map((p) => ({ status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: p.html }));
const fixtures = JSON.parse(readFileSync(path.join(fixtureDir, 'manifest.json'), 'utf8')) as Fixture[];
const blockAnswers: TargetAnswer[] = fixtures.map((f) => ({ status: f.status, headers: f.headers, body: readFileSync(path.join(fixtureDir, f.file), 'utf8') }));

console.log(`# Block-page classifier: ${pages.length} corpus pages (${(chars / 1e6).toFixed(1)} M chars, sets: ${[...new Set(pages.map((p) => p.set))].join(', ')}), ${fixtures.length} captured block pages, ${rounds} rounds\n`);
console.log('| answers | n | baseline µs CPU/call | classifier µs CPU/call | added µs/call |');
console.log('|---|---|---|---|---|');
for (const status of [200, 403, 404]) measure(`corpus pages at ${status}`, asAnswers(status));
measure('captured block pages', blockAnswers);

// False positives: every corpus page at 200, 403, 404, 503 (none is a block page).
console.log('\n| corpus pages classified as | at 200 | at 403 | at 404 | at 503 |\n|---|---|---|---|---|');
const falsePositives = [200, 403, 404, 503].map((status) => asAnswers(status).filter((a) => classifyBlock(a) !== null).length);
console.log(`| a block (false positive), of ${pages.length} | ${falsePositives.join(' | ')} |`);

// Detection per vendor on the captured pages.
console.log('\n| vendor | captured pages | detected as that vendor |\n|---|---|---|');
for (const vendor of BLOCK_VENDORS) {
  const mine = fixtures.filter((f) => f.vendor === vendor);
  const detected = mine.filter((f) => classifyBlock(blockAnswers[fixtures.indexOf(f)]!)?.vendor === vendor).length;
  console.log(`| ${vendor} | ${mine.length} | ${detected} |`);
}
