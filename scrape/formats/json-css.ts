/**
 * The json format without a model (docs/scraping.md "Structured output"): a CSS schema maps field
 * names to selectors, read on the same parsed document as the other formats, so both engines give
 * the same JSON for the same document.
 *
 * - `baseSelector` given: a list, one object per matching element (document order), its fields
 *   read under that element; absent: one object, its fields read on the whole document.
 * - A field's `selector` picks the first matching element under its parent (absent: the parent
 *   itself); no match gives null (a `list`, an empty list).
 * - `text`: the text, whitespace collapsed; `html`: the inner HTML; `attribute`: the attribute's
 *   value, URL attributes (href, src, …) resolved against the document's base; `number`: the text
 *   (or `attribute` when given) as a number — see `toNumber` — null when it holds none;
 *   `nested`: an object of `fields` read under the match; `list`: every match, each an object of
 *   `fields`, or its text without `fields`.
 */
import { type AnyNode, type Element, isDocument, isTag } from 'domhandler';
import type { CssField, CssJsonFormat } from '../types';
import { type CheerioAPI, absoluteUrl, baseUrlOf, collapse, select } from './dom';

const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'poster', 'data', 'cite']);

type JsonValue = string | number | null | JsonObject | JsonValue[];
interface JsonObject {
  [name: string]: JsonValue;
}

/**
 * A number from text as pages write prices and counts: the first number in it, with `,` or `.`
 * as thousands or decimal separators ("$1,299.99" → 1299.99, "1.299,99 €" → 1299.99,
 * "12 items" → 12, "-3.5" → -3.5); null without digits. A lone separator followed by exactly
 * three digits is read as thousands ("1,299" → 1299, "1.299" → 1299).
 */
export function toNumber(text: string): number | null {
  const match = /-?\d[\d.,\s\u00a0\u202f']*/.exec(text);
  if (!match) return null;
  let digits = match[0].replace(/[\s\u00a0\u202f']/g, '').replace(/[.,]+$/, '');
  const negative = digits.startsWith('-');
  if (negative) digits = digits.slice(1);
  const lastDot = digits.lastIndexOf('.');
  const lastComma = digits.lastIndexOf(',');
  const lastSep = Math.max(lastDot, lastComma);
  let normalised: string;
  if (lastSep === -1) normalised = digits;
  else {
    const sep = digits[lastSep]!;
    const decimals = digits.slice(lastSep + 1);
    const other = sep === '.' ? ',' : '.';
    const sameSepCount = digits.split(sep).length - 1;
    // One kind of separator, used once, followed by three digits: thousands ("1,299"); several of one kind: thousands ("1,299,000").
    const isThousands = (!digits.includes(other) && decimals.length === 3 && sameSepCount === 1) || sameSepCount > 1;
    normalised = isThousands ? digits.replace(/[.,]/g, '') : `${digits.slice(0, lastSep).replace(/[.,]/g, '')}.${decimals}`;
  }
  const value = Number(normalised);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

function readField($: CheerioAPI, parent: AnyNode, field: CssField, base: string): JsonValue {
  const matches = (): Element[] => (field.selector === undefined ? (isTag(parent) ? [parent] : []) : select(field.selector, parent));
  if (field.type === 'list') {
    return matches().map((el) => (field.fields ? readObject($, el, field.fields, base) : collapse($(el).text())));
  }
  const el = field.selector === undefined ? (isTag(parent) || isDocument(parent) ? parent : undefined) : matches()[0];
  if (el === undefined) return null;
  switch (field.type) {
    case 'text':
      return collapse($(el).text());
    case 'html':
      return ($(el).html() ?? '').trim();
    case 'attribute':
      return attributeOf(el, field.attribute!, base);
    case 'number':
      return toNumber(field.attribute !== undefined ? (attributeOf(el, field.attribute, base) ?? '') : $(el).text());
    case 'nested':
      return readObject($, el, field.fields ?? [], base);
  }
}

function attributeOf(el: AnyNode, name: string, base: string): string | null {
  if (!isTag(el)) return null;
  const attr = name.toLowerCase();
  const value = el.attribs[attr];
  if (value === undefined) return null;
  return URL_ATTRIBUTES.has(attr) ? (absoluteUrl(value, base) ?? value.trim()) : value;
}

function readObject($: CheerioAPI, parent: AnyNode, fields: readonly CssField[], base: string): JsonObject {
  const out: JsonObject = {};
  for (const field of fields) out[field.name] = readField($, parent, field, base);
  return out;
}

/** The json of a CSS schema on a parsed document (whole page, read before the content step changes it). */
export function cssJsonOf($: CheerioAPI, finalUrl: string, format: CssJsonFormat): JsonValue {
  const base = baseUrlOf($, finalUrl);
  const root = $.root()[0]!;
  if (format.css.baseSelector === undefined) return readObject($, root, format.css.fields, base);
  return select(format.css.baseSelector, root).map((el) => readObject($, el, format.css.fields, base));
}
