/** Format work on a real worker thread (piscina): the same answers as inline, off the event loop. */
import { documentOutputs } from './index';
import { createDocumentOutputThreads } from './threads';

const response = { status: 200, headers: { 'content-type': 'text/html' }, finalUrl: 'http://site.test/a' };
const paragraphs = Array.from({ length: 400 }, (_, i) => `<p>Paragraph ${i} of the article, with <a href="/p/${i}">a link</a> and some words to read.</p>`).join('\n');
const big = `<!doctype html><html><head><title>Big page</title></head><body><nav>menu</nav><article><h1>Title</h1>${paragraphs}</article></body></html>`;

describe('createDocumentOutputThreads', () => {
  const threads = createDocumentOutputThreads({ threads: 1, minChars: 1024 });
  afterAll(() => threads.close());

  it('gives a large document the same outputs as inline, computed on a thread while the event loop runs', async () => {
    const req = { url: response.finalUrl, selectors: ['h1'], formats: ['markdown', 'links', 'metadata'] as const };
    const order: string[] = [];
    setImmediate(() => order.push('event loop'));
    const outputs = await threads.outputs({ ...req, formats: [...req.formats] }, big, response).then((value) => {
      order.push('outputs');
      return value;
    });
    expect(outputs).toEqual(documentOutputs({ ...req, formats: [...req.formats] }, big, response));
    expect(outputs.markdown).toContain('Paragraph 399 of the article');
    expect(order).toEqual(['event loop', 'outputs']);
    expect(threads.offloaded).toBe(1);
  });

  it('keeps small documents and documents that need no parse inline', async () => {
    const before = threads.offloaded;
    expect(await threads.outputs({ url: response.finalUrl, formats: ['text'] }, '<p>small</p>', response)).toEqual({ text: 'small' });
    expect(await threads.outputs({ url: response.finalUrl }, big, response)).toEqual({ html: big });
    expect(threads.offloaded).toBe(before);
  });

  it('passes a failure of the work back to the caller', async () => {
    await expect(threads.outputs({ url: response.finalUrl, selectors: ['p:nth-child('] }, big, response)).rejects.toThrow();
  });
});

it('with 0 threads does everything inline', async () => {
  const inline = createDocumentOutputThreads({ threads: 0, minChars: 1 });
  const order: string[] = [];
  setImmediate(() => order.push('event loop'));
  await inline.outputs({ url: response.finalUrl, formats: ['text'] }, big, response);
  order.push('outputs');
  expect(order).toEqual(['outputs']);
  expect(inline.offloaded).toBe(0);
  await inline.close();
});
