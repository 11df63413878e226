// Tuning aid (development split only): what our extractor adds and misses on one page.
//   node --import tsx bench/extraction/debug-page.ts <set>/<page name prefix>   (or a name prefix alone)
import { extractMainContent } from '../../scrape/main-content';
import { loadPages } from './pages';
import { htmlToText, scoreTokens, tokenize } from './score';

const wanted = process.argv[2] ?? '';
const [setPart, namePart] = wanted.includes('/') ? wanted.split('/') : [undefined, wanted];
for (const page of loadPages().filter((p) => p.name.startsWith(namePart ?? '') && (!setPart || p.set === setPart))) {
  if (page.split !== 'dev') { console.log(`${page.set}/${page.name}: held out, not shown`); continue; }
  const html = extractMainContent(page.html, page.url, { heading: page.headingExpected });
  const text = html === null ? '' : htmlToText(html);
  const s = scoreTokens(tokenize(text), tokenize(page.expected));
  console.log(`== ${page.set}/${page.name} ${page.url} f1=${s.f1.toFixed(3)} p=${s.precision.toFixed(3)} r=${s.recall.toFixed(3)}${html === null ? ' (null)' : ''}`);
  const exp = new Set(tokenize(page.expected));
  const got = new Set(tokenize(text));
  // Sentences (runs between block boundaries) of the extraction, marking those mostly absent from the expectation.
  for (const chunk of text.split(/\s{2,}|\n/).map((c) => c.trim()).filter(Boolean)) {
    const toks = tokenize(chunk);
    const miss = toks.filter((t) => !exp.has(t)).length;
    if (toks.length > 0 && miss / toks.length > 0.5) console.log(`  + ${chunk.slice(0, 160)}`);
  }
  for (const chunk of page.expected.split(/\n+/).map((c) => c.trim()).filter(Boolean)) {
    const toks = tokenize(chunk);
    const miss = toks.filter((t) => !got.has(t)).length;
    if (toks.length > 0 && miss / toks.length > 0.5) console.log(`  - ${chunk.slice(0, 160)}`);
  }
}
