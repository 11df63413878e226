/** URLs of the extracted content made absolute against the document's base. */
import type { Doc } from './boilerplate';

const URL_ATTRIBUTES: Array<[string, string]> = [
  ['a', 'href'], ['area', 'href'], ['img', 'src'], ['video', 'src'], ['video', 'poster'], ['audio', 'src'],
  ['source', 'src'], ['track', 'src'], ['iframe', 'src'], ['embed', 'src'], ['object', 'data'], ['blockquote', 'cite'], ['q', 'cite'],
];

function absolute(value: string, base: string): string | null {
  try {
    return new URL(value.trim(), base).href;
  } catch {
    return null;
  }
}

export function resolveUrls(root: Element, base: string): void {
  for (const [tag, attr] of URL_ATTRIBUTES) {
    for (const el of Array.from(root.querySelectorAll(`${tag}[${attr}]`))) {
      const abs = absolute(el.getAttribute(attr) ?? '', base);
      if (abs === null || /^(javascript|vbscript|data):/i.test(abs) && tag !== 'img') el.removeAttribute(attr);
      else el.setAttribute(attr, abs);
    }
  }
  for (const el of Array.from(root.querySelectorAll('img[srcset], source[srcset]'))) {
    const srcset = (el.getAttribute('srcset') ?? '')
      .split(',')
      .map((part) => {
        const [url, ...descriptor] = part.trim().split(/\s+/);
        const abs = url ? absolute(url, base) : null;
        return abs ? [abs, ...descriptor].join(' ') : null;
      })
      .filter((x): x is string => x !== null);
    if (srcset.length > 0) el.setAttribute('srcset', srcset.join(', '));
    else el.removeAttribute('srcset');
  }
}

/** The document's base URL: a <base href> resolved against the page URL, else the page URL. */
export function documentBase(document: Doc, baseUrl: string): string {
  const href = document.querySelectorAll('base[href]')[0]?.getAttribute('href');
  return (href && absolute(href, baseUrl)) || baseUrl;
}

