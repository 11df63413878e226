// Types for the two charset libraries of scrape/charset.ts (they ship none).
declare module 'html-encoding-sniffer' {
  /** The WHATWG encoding sniffing algorithm: an Encoding Standard name, or `defaultEncoding` when nothing is declared. */
  export default function sniffHTMLEncoding(
    bytes: Uint8Array,
    options?: { transportLayerEncodingLabel?: string; defaultEncoding?: string | null },
  ): string | null;
}
declare module 'whatwg-encoding' {
  export function decode(buffer: Buffer, encodingName: string): string;
  export function labelToName(label: string): string | null;
  export function getBOMEncoding(buffer: Uint8Array): string | null;
}
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  export const gfm: TurndownService.Plugin;
}
