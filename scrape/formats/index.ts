/**
 * What a scrape returns from its document (docs/scraping.md "Output formats"), shared by both
 * engines as the selectors are: selector results, the legacy `html` field, and the formats.
 *
 * - No `formats`: as before this module existed — `data` with selectors, else `html`, the
 *   document as received / rendered. Nothing is parsed beyond what selectors need.
 * - `formats`: `rawHtml` (the document as received / rendered), `html` (the cleaned content),
 *   `markdown`, `text` (both from that same cleaned content), `links`, `metadata` (whole page);
 *   `screenshot` is the browser engine's; `{type: "json", css}` (the CSS schema: json-css.ts),
 *   and for the model formats (json with a schema, summary) the main content's markdown as
 *   `llm_input`, which the scrape activity hands to the model (scrape/llm/model-formats.ts).
 *   The document is parsed once (cheerio) for all of them.
 *
 * The content of html, markdown and text: the elements matching `include_tags` when given (in
 * document order, outermost only), else the main content (`only_main_content`, default true;
 * scrape/main-content/; the page's heading on top as an <h1> unless `include_heading` is false;
 * the <body> when it finds nothing content-like), else the <body>; then `exclude_tags` removed,
 * then cleaned (scrape/formats/dom.ts `cleanTree`).
 */
import type { Cheerio } from 'cheerio';
import type { AnyNode } from 'domhandler';
import { extractMainContent } from '../main-content';
import { evaluateSelectors } from '../selectors';
import { type FormatEntry, type FormatOutputs, type OutputFormat, type ScrapeResult, cssJsonFormat, plainFormats, schemaJsonFormat, summaryFormat } from '../types';
import { cssJsonOf } from './json-css';
import { type CheerioAPI, baseUrlOf, cleanTree, parseDocument, parseFragment, removeAll, select, textOf } from './dom';
import { toMarkdown } from './markdown';
import { type ResponseFacts, linksOf, metadataOf } from './page-facts';
import type { EngineRequest } from '../request';

export type { ResponseFacts } from './page-facts';

const CONTENT_FORMATS: readonly OutputFormat[] = ['html', 'markdown', 'text'];

export interface ContentOptions {
  only_main_content?: boolean;
  include_heading?: boolean;
  include_tags?: readonly string[];
  exclude_tags?: readonly string[];
}

/** The content (html, markdown, text) of a parsed document, cleaned: its tree and its nodes; `$` may be changed. */
export function contentOf($: CheerioAPI, rawHtml: string, base: string, options: ContentOptions): { $: CheerioAPI; root: Cheerio<AnyNode> } {
  let tree: CheerioAPI;
  let root: Cheerio<AnyNode>;
  if (options.include_tags?.length) {
    const picked = select(options.include_tags.join(', '), $.root().toArray());
    const set = new Set<AnyNode>(picked);
    const outermost = picked.filter((el) => !$(el).parents().toArray().some((parent) => set.has(parent)));
    tree = parseFragment(outermost.map((el) => $.html(el)).join(''));
    root = tree.root();
  } else {
    const main = options.only_main_content !== false ? extractMainContent(rawHtml, base, { heading: options.include_heading !== false }) : null;
    if (main !== null) {
      tree = parseFragment(main);
      root = tree.root();
    } else {
      tree = $;
      root = $('body');
    }
  }
  if (options.exclude_tags?.length) removeAll(select(options.exclude_tags.join(', '), root.toArray()));
  cleanTree(root, base);
  return { $: tree, root };
}

/** The format fields (all but screenshot) for `formats`, from the document and its response. */
export function renderFormats(rawHtml: string, response: ResponseFacts, formats: readonly FormatEntry[], options: ContentOptions = {}): FormatOutputs {
  const wanted = new Set(plainFormats(formats));
  const css = cssJsonFormat(formats);
  // The model formats read the main content as markdown (docs/scraping.md "Structured output").
  const forModel = schemaJsonFormat(formats) !== undefined || summaryFormat(formats) !== undefined;
  const out: FormatOutputs = {};
  if (wanted.has('rawHtml')) out.rawHtml = storableDocument(rawHtml);
  const needsContent = forModel || CONTENT_FORMATS.some((f) => wanted.has(f));
  const needsDom = needsContent || css !== undefined || wanted.has('links') || wanted.has('metadata');
  if (!needsDom) return out;
  const $ = parseDocument(rawHtml);
  const base = baseUrlOf($, response.finalUrl);
  // Read the whole page before the content step changes the document.
  if (wanted.has('links')) out.links = linksOf($, base);
  if (wanted.has('metadata')) out.metadata = metadataOf($, base, response);
  if (css) out.json = cssJsonOf($, response.finalUrl, css);
  if (needsContent) {
    const { root } = contentOf($, rawHtml, base, options);
    const html = (root.html() ?? '').trim();
    if (wanted.has('html')) out.html = html;
    const markdown = wanted.has('markdown') || forModel ? toMarkdown(html) : undefined;
    if (wanted.has('markdown')) out.markdown = markdown;
    if (forModel) out.llm_input = markdown;
    if (wanted.has('text')) out.text = textOf(root.toArray());
  }
  return out;
}

/**
 * The raw document as answered and stored: each U+0000 as U+FFFD, which PostgreSQL's jsonb can
 * hold and an HTML parser makes of it anyway (the selectors and formats read the document as
 * received). docs/scraping.md, "NUL characters".
 */
export function storableDocument(html: string): string {
  return html.includes('\0') ? html.replaceAll('\0', '\uFFFD') : html;
}

/**
 * The result fields an engine derives from its document `html`: `data` (selectors), the legacy
 * `html` (no formats, no selectors), and the format fields. `response` is the final response's.
 */
export type DocumentOutputs = Pick<ScrapeResult, 'data' | keyof FormatOutputs>;

export function documentOutputs(req: EngineRequest, html: string, response: ResponseFacts): DocumentOutputs {
  const out: DocumentOutputs = {};
  if (req.selectors && req.selectors.length > 0) out.data = evaluateSelectors(html, req.selectors, { baseUrl: response.finalUrl });
  if (req.formats === undefined) {
    if (out.data === undefined) out.html = storableDocument(html);
    return out;
  }
  return Object.assign(out, renderFormats(html, response, req.formats, req));
}
