/** The chunking and merging rules of Firecrawl's extract (scrape/llm/extract-merge.ts): pure functions. */
import { chunkPages, mergeAnswers, mergeValues, relaxedSchema } from './extract-merge';

describe('chunkPages', () => {
  it('keeps pages whole when they fit, in order, and starts a new chunk when the next does not', () => {
    const pages = [
      { url: 'https://e.com/a', markdown: 'a'.repeat(300) },
      { url: 'https://e.com/b', markdown: 'b'.repeat(300) },
      { url: 'https://e.com/c', markdown: 'c'.repeat(300) },
    ];
    const chunks = chunkPages(pages, 1000);
    expect(chunks.map((c) => c.urls)).toEqual([['https://e.com/a', 'https://e.com/b'], ['https://e.com/c']]);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(800);
    expect(chunks[0]!.text).toContain('## Page: https://e.com/a');
  });

  it('cuts a page longer than a chunk into parts, each under the page header; skips empty pages', () => {
    const chunks = chunkPages([{ url: 'https://e.com/long', markdown: 'x'.repeat(2000) }, { url: 'https://e.com/empty', markdown: '  ' }], 1000);
    expect(chunks.length).toBe(3);
    for (const chunk of chunks) {
      expect(chunk.urls).toEqual(['https://e.com/long']);
      expect(chunk.text.startsWith('## Page: https://e.com/long')).toBe(true);
    }
    expect(chunks.map((c) => c.text.replace(/## Page: \S+\n\n/g, '').trim()).join('')).toBe('x'.repeat(2000));
  });
});

describe('merging partial answers', () => {
  it('concatenates arrays without duplicates, merges objects, keeps the first scalar that has a value', () => {
    expect(mergeValues([1, { a: 1 }], [{ a: 1 }, 2])).toEqual([1, { a: 1 }, 2]);
    expect(mergeValues({ name: null, tags: ['x'] }, { name: 'B', tags: ['x', 'y'], extra: 1 })).toEqual({ name: 'B', tags: ['x', 'y'], extra: 1 });
    expect(mergeValues({ name: 'A' }, { name: 'B' })).toEqual({ name: 'A' });
  });

  it('names the pages each top-level field came from', () => {
    const merged = mergeAnswers([
      { value: { products: ['p1'], shop: 'First', note: null }, urls: ['u1'] },
      { value: { products: ['p2'], shop: 'Second', note: 'n' }, urls: ['u2', 'u3'] },
    ]);
    expect(merged.data).toEqual({ products: ['p1', 'p2'], shop: 'First', note: 'n' });
    expect(merged.sources).toEqual({ products: ['u1', 'u2', 'u3'], shop: ['u1'], note: ['u2', 'u3'] });
  });

  it('relaxes `required` at every depth and leaves the rest of the schema', () => {
    const schema = { type: 'object', required: ['a'], properties: { a: { type: 'array', items: { type: 'object', required: ['b'], properties: { b: { type: 'string' } } } } } };
    expect(relaxedSchema(schema)).toEqual({ type: 'object', properties: { a: { type: 'array', items: { type: 'object', properties: { b: { type: 'string' } } } } } });
  });
});
