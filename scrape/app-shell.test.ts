import { javaScriptNeed } from './app-shell';

const page = (body: string, head = '<title>Shop</title>') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const article = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20);

describe('javaScriptNeed', () => {
  it('an empty mount point with a script bundle is an app shell', () => {
    expect(javaScriptNeed(page('<div id="root"></div><script src="/static/js/main.3f2a.js"></script>'))).toBe('app_shell');
  });

  it('an empty Next.js mount without a bundle is an app shell too', () => {
    expect(javaScriptNeed(page('<div id="__next"></div>'))).toBe('app_shell');
  });

  it('a "Loading…" shell with a module script is an app shell', () => {
    expect(javaScriptNeed(page('<app-root>Loading…</app-root><script type="module" src="/main.js"></script>'))).toBe('app_shell');
  });

  it('a noscript asking for JavaScript beside little text', () => {
    const html = page(`<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"><p>${'x'.repeat(200)}</p></div>`);
    expect(javaScriptNeed(html)).toBe('noscript');
  });

  it('an article with scripts is a page', () => {
    expect(javaScriptNeed(page(`<article><h1>News</h1><p>${article}</p></article><script src="/analytics.js"></script>`))).toBeUndefined();
  });

  it('an article with a polite noscript notice is a page', () => {
    expect(javaScriptNeed(page(`<noscript>Please enable JavaScript for comments.</noscript><p>${article}</p>`))).toBeUndefined();
  });

  it('a short page without scripts or a mount point is a page (a plain "OK")', () => {
    expect(javaScriptNeed(page('<p>OK</p>'))).toBeUndefined();
  });

  it('a noscript that does not ask for JavaScript (a tracking pixel) is not a reason', () => {
    expect(javaScriptNeed(page(`<noscript><img src="/pixel.gif"></noscript><p>${'y'.repeat(300)}</p>`))).toBeUndefined();
  });

  it('only HTML is judged', () => {
    expect(javaScriptNeed('<div id="root"></div><script src="/a.js"></script>', 'application/json')).toBeUndefined();
    expect(javaScriptNeed('<div id="root"></div><script src="/a.js"></script>', 'text/html; charset=utf-8')).toBe('app_shell');
  });
});
