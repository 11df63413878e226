/**
 * The `markdown` format: turndown (the most used HTML-to-Markdown converter) with Joplin's
 * maintained fork of its GitHub-flavoured plugin (tables, strikethrough, task lists), ATX
 * headings, fenced code blocks (their language kept from `class="language-*"`), `-` bullets.
 * It is given the cleaned HTML as a string: turndown's tables need `table.rows`, which linkedom
 * does not provide, so turndown parses the (small, cleaned) fragment with its own DOM (domino).
 */
import { gfm } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';

let converter: TurndownService | undefined;

function turndown(): TurndownService {
  if (converter) return converter;
  converter = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_', hr: '---' });
  converter.use(gfm);
  return converter;
}

export function toMarkdown(cleanHtml: string): string {
  return turndown().turndown(cleanHtml).trim();
}
