/** Text measures of elements shared by the extraction steps. */

/** The length of an element's text with whitespace runs counted as one. */
export function textLength(el: Element): number {
  return (el.textContent ?? '').replace(/\s+/g, ' ').length;
}

/** The share of an element's text that is link text (1 for an element without text). */
export function linkDensity(el: Element): number {
  const total = textLength(el);
  if (total === 0) return 1;
  let links = 0;
  for (const a of Array.from(el.querySelectorAll('a'))) links += textLength(a);
  return links / total;
}
