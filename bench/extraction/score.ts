// Scoring of the extraction benchmark (README.md in this folder states it in words).
import * as cheerio from 'cheerio';
import type { AnyNode } from 'domhandler';

/** Scripts written without spaces between words: each character is a token of its own. */
const UNSPACED = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}])/u;

/**
 * Lower-cased tokens: maximal runs of Unicode letters, marks and digits, with each Han, kana or
 * Thai character apart (else a Chinese sentence would be one token, all or nothing).
 */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .flatMap((run) => (UNSPACED.test(run) ? run.split(UNSPACED) : [run]))
    .filter((t) => t.length > 0);
}

// Elements whose boundaries separate words even when the markup has no whitespace there
// ("<p>end</p><p>start</p>" is two words, not "endstart").
const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'td', 'th', 'tr', 'ul', 'img']);
const SKIP = new Set(['script', 'style', 'noscript', 'template']);

/** The text content of an HTML fragment, with a space at every block boundary. */
export function htmlToText(html: string): string {
  const $ = cheerio.load(html);
  const out: string[] = [];
  const stack: AnyNode[] = [...$.root().contents().toArray()].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    const type: string = node.type;
    if (type === 'text' && 'data' in node) out.push(node.data);
    else if ((type === 'tag' || type === 'root') && 'children' in node) {
      const name = 'name' in node ? node.name.toLowerCase() : '';
      if (SKIP.has(name)) continue;
      if (BLOCK.has(name)) out.push(' ');
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return out.join('');
}

export interface PageScore { precision: number; recall: number; f1: number }

/**
 * Bag-of-words precision/recall/F1 of predicted against expected tokens: true positives are
 * sum over tokens of min(count in prediction, count in expected). A null or empty prediction
 * scores 0/0/0 (unless the expectation is empty too: 1/1/1).
 */
export function scoreTokens(predicted: string[], expected: string[]): PageScore {
  if (predicted.length === 0 || expected.length === 0) {
    const same = predicted.length === expected.length ? 1 : 0;
    return { precision: same, recall: same, f1: same };
  }
  const counts = new Map<string, number>();
  for (const t of expected) counts.set(t, (counts.get(t) ?? 0) + 1);
  let tp = 0;
  for (const t of predicted) {
    const c = counts.get(t) ?? 0;
    if (c > 0) { tp++; counts.set(t, c - 1); }
  }
  const precision = tp / predicted.length;
  const recall = tp / expected.length;
  const f1 = tp === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** Macro average: the mean over pages of each figure. */
export function macro(scores: PageScore[]): PageScore {
  const n = scores.length || 1;
  const sum = (k: keyof PageScore): number => scores.reduce((s, x) => s + x[k], 0) / n;
  return { precision: sum('precision'), recall: sum('recall'), f1: sum('f1') };
}
