/**
 * What the json format's CSS schema (scrape/formats/json-css.ts) costs on top of the format work,
 * in one run, in-process: `documentOutputs` (what both engines call on their document) on a
 * generated product list of N items, for formats ["markdown"] (the baseline a caller would
 * otherwise parse themselves), [{type: "json", css}] alone, and both. Rounds alternate the three
 * so drift in the shared machine's load hits each alike; p50 and p95 of each.
 *   node --import tsx bench/json-css.ts        BENCH_ITEMS (default 2000) items, BENCH_ROUNDS (default 15)
 */
import { readFileSync } from 'node:fs';
import { documentOutputs } from '../scrape/formats';
import { parseScrapeRequest } from '../scrape/request';

const items = Number(process.env.BENCH_ITEMS ?? '2000');
const rounds = Number(process.env.BENCH_ROUNDS ?? '15');
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function page(n: number): string {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    rows.push(
      `<li class="product" data-sku="S-${i}"><h2><a class="title" href="/p/${i}">Product number ${i}</a></h2><p>A sturdy thing, hand-made, item ${i} of the catalogue.</p>` +
        `<span class="price">$${(i * 7.31).toFixed(2)}</span><div class="maker"><span class="who">Maker ${i % 40}</span></div><ul class="tags"><li>t${i % 5}</li><li>t${i % 7}</li></ul></li>`,
    );
  }
  return `<!doctype html><html><head><title>Catalogue</title></head><body><nav><a href="/">Home</a></nav><main><h1>Catalogue</h1><ul>${rows.join('')}</ul></main></body></html>`;
}

const css = {
  type: 'json',
  css: {
    baseSelector: 'li.product',
    fields: [
      { name: 'name', selector: 'a.title', type: 'text' },
      { name: 'price', selector: '.price', type: 'number' },
      { name: 'url', selector: 'a.title', type: 'attribute', attribute: 'href' },
      { name: 'sku', type: 'attribute', attribute: 'data-sku' },
      { name: 'maker', selector: '.maker', type: 'nested', fields: [{ name: 'name', selector: '.who', type: 'text' }] },
      { name: 'tags', selector: '.tags li', type: 'list' },
    ],
  },
};

const html = page(items);
const facts = { status: 200, headers: {}, finalUrl: 'https://shop.test/catalogue' };
const cases = {
  markdown: parseScrapeRequest({ url: facts.finalUrl, formats: ['markdown'] }),
  'json css': parseScrapeRequest({ url: facts.finalUrl, formats: [css] }),
  'markdown + json css': parseScrapeRequest({ url: facts.finalUrl, formats: ['markdown', css] }),
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
// Warm-up (module loading, JIT).
for (const req of Object.values(cases)) documentOutputs(req, html, facts);
const check = documentOutputs(cases['json css'], html, facts).json as unknown[];
if (check.length !== items) throw new Error(`expected ${items} objects, got ${check.length}`);
console.log(`page ${(html.length / 1024).toFixed(0)} KiB, ${items} products, ${rounds} rounds, load ${loadavg()}`);
for (let round = 0; round < rounds; round++) {
  const order = Object.entries(cases);
  if (round % 2) order.reverse();
  for (const [name, req] of order) {
    const started = performance.now();
    documentOutputs(req, html, facts);
    times[name]!.push(performance.now() - started);
  }
}
for (const [name, list] of Object.entries(times)) {
  const sorted = [...list].sort((a, b) => a - b);
  console.log(`${name.padEnd(22)} p50 ${percentile(sorted, 50).toFixed(1)} ms   p95 ${percentile(sorted, 95).toFixed(1)} ms`);
}
console.log(`load after ${loadavg()}`);
