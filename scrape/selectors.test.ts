import { AppError } from '../platform/errors';
import { evaluateSelectors, validateSelectors } from './selectors';

const HTML = `<html><body>
  <h1 class="title">  Hello
     <em>world</em>  </h1>
  <ul>
    <li class="item" data-id="1"><a href="/a">First</a></li>
    <li class="item" data-id="2"><a href="https://other.test/b">Second</a></li>
    <li class="item"><a>Third (no href)</a></li>
  </ul>
  <img src="img/logo.png" alt="Logo">
</body></html>`;

describe('evaluateSelectors', () => {
  it('returns the first match by default, text whitespace-normalised, inner html and attributes', () => {
    const [h1, li] = evaluateSelectors(HTML, ['h1', { selector: 'li.item', name: 'items' }]);
    expect(h1).toEqual({ selector: 'h1', results: [{ text: 'Hello world', html: expect.stringContaining('<em>world</em>'), attributes: { class: 'title' } }] });
    expect(li!.name).toBe('items');
    expect(li!.results).toHaveLength(1);
    expect(li!.results[0]!.attributes).toEqual({ class: 'item', 'data-id': '1' });
  });

  it('returns every match with all: true, in document order', () => {
    const [li] = evaluateSelectors(HTML, [{ selector: 'li.item', all: true }]);
    expect(li!.results.map((r) => r.text)).toEqual(['First', 'Second', 'Third (no href)']);
  });

  it('with attribute: text is the value, elements without it are skipped, URLs resolved against baseUrl', () => {
    const [links, ids, img] = evaluateSelectors(
      HTML,
      [{ selector: 'a', attribute: 'href', all: true }, { selector: 'li', attribute: 'data-id', all: true }, { selector: 'img', attribute: 'src' }],
      { baseUrl: 'https://site.test/dir/page.html' },
    );
    expect(links!.results.map((r) => r.text)).toEqual(['https://site.test/a', 'https://other.test/b']);
    expect(links!.results[0]!.attributes.href).toBe('/a');
    expect(ids!.results.map((r) => r.text)).toEqual(['1', '2']);
    expect(img!.results).toEqual([{ text: 'https://site.test/dir/img/logo.png', html: '', attributes: { src: 'img/logo.png', alt: 'Logo' } }]);
  });

  it('keeps raw attribute values without a baseUrl', () => {
    const [links] = evaluateSelectors(HTML, [{ selector: 'a', attribute: 'href' }]);
    expect(links!.results[0]!.text).toBe('/a');
  });

  it('returns an empty result list for no match, one entry per selector', () => {
    const out = evaluateSelectors(HTML, ['.missing', 'h1']);
    expect(out).toHaveLength(2);
    expect(out[0]).toEqual({ selector: '.missing', results: [] });
  });
});

describe('validateSelectors', () => {
  it('accepts valid CSS incl. pseudo-classes', () => {
    expect(() => validateSelectors(['h1', 'ul > li:nth-child(2) a[href^="/"]', { selector: 'li:has(a)' }, 'p:contains("x")'])).not.toThrow();
  });

  it.each(['h1[', '.', 'a[href=', '!!', 'a:nosuchpseudo', ''])('rejects %j with INVALID_SELECTOR naming it', (bad) => {
    let error: unknown;
    try {
      validateSelectors(['h1', { selector: bad }]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'INVALID_SELECTOR', status: 400, extra: { selector: bad } });
    if (bad !== '') expect((error as Error).message).toContain(bad);
  });

  it('evaluateSelectors validates too', () => {
    expect(() => evaluateSelectors(HTML, ['h1', 'a[[b'])).toThrow(expect.objectContaining({ code: 'INVALID_SELECTOR' }));
  });

  it('a selector found valid stays valid, and an invalid one is refused every time (the memo keeps only valid ones)', () => {
    for (let i = 0; i < 3; i++) {
      expect(() => validateSelectors(['h1', 'li.item'])).not.toThrow();
      expect(() => validateSelectors(['h1', 'li.item', 'a[[b'])).toThrow(expect.objectContaining({ code: 'INVALID_SELECTOR' }));
      expect(() => validateSelectors(['  '])).toThrow(expect.objectContaining({ code: 'INVALID_SELECTOR' }));
    }
  });
});
