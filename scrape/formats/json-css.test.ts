/**
 * The json format's CSS schema (scrape/formats/json-css.ts) on documents: lists under a base
 * selector, one object without, nested objects, lists of texts and of objects, attributes
 * resolved as URLs, the number reading of prices as shops write them, null for what is missing.
 */
import { documentOutputs } from './index';
import { toNumber } from './json-css';
import { parseScrapeRequest } from '../request';

const facts = { status: 200, headers: {}, finalUrl: 'https://shop.test/catalogue/' };

const PAGE = `<html><head><base href="https://cdn.shop.test/"></head><body>
<h1>Catalogue</h1><p class="count">Showing 2 of 1,024 items</p>
<article class="item" data-id="7"><h2><a href="/p/7">Lamp</a></h2><span class="price">€ 1.299,00</span>
  <ul class="tags"><li>brass</li><li> desk </li></ul>
  <div class="reviews"><div class="review"><b>Ann</b><i>5</i></div><div class="review"><b>Bo</b><i>3.5</i></div></div></article>
<article class="item" data-id="8"><h2><a href="p/8">Chair <em>(oak)</em></a></h2></article>
</body></html>`;

function jsonOf(css: unknown): unknown {
  const req = parseScrapeRequest({ url: facts.finalUrl, formats: [{ type: 'json', css }] });
  return documentOutputs(req, PAGE, facts).json;
}

describe('the json format by CSS schema', () => {
  it('gives one object per base element, with nested objects, lists of objects and of texts, URLs resolved against <base>', () => {
    expect(
      jsonOf({
        baseSelector: 'article.item',
        fields: [
          { name: 'id', type: 'number', attribute: 'data-id' },
          { name: 'name', selector: 'h2 a', type: 'text' },
          { name: 'url', selector: 'h2 a', type: 'attribute', attribute: 'href' },
          { name: 'price', selector: '.price', type: 'number' },
          { name: 'tags', selector: '.tags li', type: 'list' },
          { name: 'reviews', selector: '.review', type: 'list', fields: [{ name: 'by', selector: 'b', type: 'text' }, { name: 'stars', selector: 'i', type: 'number' }] },
          { name: 'title', selector: 'h2', type: 'nested', fields: [{ name: 'html', selector: 'a', type: 'html' }] },
        ],
      }),
    ).toEqual([
      { id: 7, name: 'Lamp', url: 'https://cdn.shop.test/p/7', price: 1299, tags: ['brass', 'desk'], reviews: [{ by: 'Ann', stars: 5 }, { by: 'Bo', stars: 3.5 }], title: { html: 'Lamp' } },
      { id: 8, name: 'Chair (oak)', url: 'https://cdn.shop.test/p/8', price: null, tags: [], reviews: [], title: { html: 'Chair <em>(oak)</em>' } },
    ]);
  });

  it('without a base selector reads one object from the whole page; a base selector matching nothing gives []', () => {
    expect(jsonOf({ fields: [{ name: 'heading', selector: 'h1', type: 'text' }, { name: 'total', selector: '.count', type: 'number' }, { name: 'missing', selector: '.nope', type: 'text' }] })).toEqual({
      heading: 'Catalogue',
      total: 2,
      missing: null,
    });
    expect(jsonOf({ baseSelector: 'section.none', fields: [{ name: 'a', selector: 'a', type: 'text' }] })).toEqual([]);
  });

  it('reads numbers as pages write them', () => {
    const cases: Array<[string, number | null]> = [
      ['$1,299.99', 1299.99],
      ['1.299,99 €', 1299.99],
      ['1 299,50 €', 1299.5],
      ['12 items', 12],
      ['-3.5°', -3.5],
      ['1,299', 1299],
      ['1,000,000', 1000000],
      ['0.5', 0.5],
      ['4,5 / 5', 4.5],
      ['free', null],
      ['', null],
    ];
    for (const [text, value] of cases) expect([text, toNumber(text)]).toEqual([text, value]);
  });

  it('refuses a schema that cannot be read: an attribute field without attribute, fields on a text field, a bad selector', () => {
    expect(() => jsonOf({ fields: [{ name: 'a', selector: 'a', type: 'attribute' }] })).toThrow('needs `attribute`');
    expect(() => jsonOf({ fields: [{ name: 'a', selector: 'a', type: 'text', fields: [{ name: 'b', type: 'text' }] }] })).toThrow('only for types');
    expect(() => jsonOf({ baseSelector: 'div[', fields: [{ name: 'a', type: 'text' }] })).toThrow('css.baseSelector');
  });
});
