/** The pure format code (scrape/formats/), the charset sniffer and the request rules of the formats. */
import { AppError } from '../../platform/errors';
import { ARTICLE_HTML } from '../../test/fixtures/server';
import { decodeHtml, sniffCharset } from '../charset';
import { parseScrapeRequest, scrapeCost } from '../request';
import { documentOutputs, renderFormats } from './index';
import { parseFragment, textOf } from './dom';

const BASE = 'https://site.test/blog/post';
const facts = { status: 200, headers: { 'content-type': 'text/html' }, finalUrl: BASE };

describe('renderFormats', () => {
  it('parses nothing and adds nothing without formats (the legacy answer)', () => {
    expect(documentOutputs({ url: BASE }, '<p>x</p>', facts)).toEqual({ html: '<p>x</p>' });
    expect(documentOutputs({ url: BASE, selectors: ['p'] }, '<p>x</p>', facts)).toEqual({ data: [{ selector: 'p', results: [{ text: 'x', html: 'x', attributes: {} }] }] });
    expect(renderFormats('<p>x</p>', facts, ['rawHtml'])).toEqual({ rawHtml: '<p>x</p>' });
  });

  it('cleans html: scripts, styles, comments, frames and handlers removed, URLs absolute (srcset and <base> too)', () => {
    const html =
      '<html><head><base href="/root/"></head><body onload="x()"><!-- c --><script>bad()</script><style>p{}</style><noscript>n</noscript>' +
      '<p onclick="y()"><a href="a?b=1#f">A</a> <img src="i.png" srcset="i.png 1x, /j.png 2x"> <a href="#top">top</a> <a href="mailto:a@b.test">m</a></p><iframe src="/f"></iframe></body></html>';
    const { html: clean } = renderFormats(html, facts, ['html'], { only_main_content: false });
    expect(clean).toBe(
      '<p><a href="https://site.test/root/a?b=1#f">A</a> <img src="https://site.test/root/i.png" srcset="https://site.test/root/i.png 1x, https://site.test/j.png 2x"> <a href="#top">top</a> <a href="mailto:a@b.test">m</a></p>',
    );
  });

  it('reads the body of a page without <html>/<body> tags as a browser would', () => {
    const out = renderFormats('<title>T</title><p>one <a href="x">x</a></p><p>two', facts, ['text', 'links', 'metadata'], { only_main_content: false });
    expect(out.text).toBe('one x\n\ntwo');
    expect(out.links).toEqual([{ url: 'https://site.test/blog/x', text: 'x', rel: null }]);
    expect(out.metadata).toMatchObject({ title: 'T', favicon: 'https://site.test/favicon.ico', canonical: null, language: null });
  });

  it('links: absolute, http(s) only, without fragment, once each (first rel, first non-empty text)', () => {
    const html = '<a href="/a#x" rel="nofollow"><img alt="Logo"></a><a href="/a">A</a><a href="javascript:void(0)">j</a><a href="ftp://h/f">f</a><a href="https://o.test/" title="Other"></a>';
    expect(renderFormats(html, facts, ['links']).links).toEqual([
      { url: 'https://site.test/a', text: 'Logo', rel: 'nofollow' },
      { url: 'https://o.test/', text: 'Other', rel: null },
    ]);
  });

  it('metadata: every og:* and twitter:* (arrays when repeated), published time, http-equiv language', () => {
    const html =
      '<html><head><meta http-equiv="content-language" content="fr"><meta property="og:image" content="/1.png"><meta property="og:image" content="/2.png">' +
      '<meta name="twitter:title" content="Tw"><meta itemprop="datePublished" content="2020-01-01"><link rel="shortcut icon" href="/fav.ico"></head><body></body></html>';
    expect(renderFormats(html, { ...facts, status: 404 }, ['metadata']).metadata).toEqual({
      title: null,
      description: null,
      language: 'fr',
      canonical: null,
      favicon: 'https://site.test/fav.ico',
      published_time: '2020-01-01',
      status: 404,
      content_type: 'text/html',
      final_url: BASE,
      'og:image': ['https://site.test/1.png', 'https://site.test/2.png'],
      'twitter:title': 'Tw',
    });
  });

  it('markdown keeps GFM tables and fenced code with its language', () => {
    const { markdown } = renderFormats(ARTICLE_HTML, facts, ['markdown'], { include_tags: ['h2', 'table', 'pre'] });
    expect(markdown).toBe(
      '## What lives there\n\n| Animal | Where |\n| --- | --- |\n| Sea anemone | Lower pools |\n| Shore crab | Under stones |\n\n## Counting what you see\n\n```python\nfor pool in pools:\n    print(pool.name, len(pool.species))\n```',
    );
  });

  it('include_tags keeps the outermost matches in document order; exclude_tags removes from them', () => {
    const html = '<div class="a"><p class="b">1</p><p>2</p></div><p class="b">3</p>';
    expect(renderFormats(html, facts, ['html'], { include_tags: ['.b', '.a'], exclude_tags: ['p:not(.b)'] }).html).toBe('<div class="a"><p class="b">1</p></div><p class="b">3</p>');
  });

  it('main content by default, the whole body with only_main_content: false', () => {
    const main = renderFormats(ARTICLE_HTML, facts, ['text']).text!;
    const whole = renderFormats(ARTICLE_HTML, facts, ['text'], { only_main_content: false }).text!;
    expect(main).toContain('Tide pools form where the sea leaves water behind');
    expect(main).not.toContain('Accept all');
    expect(whole).toMatch(/^We use cookies\. Accept all\n\nFixture Site\n\nHome Guides About/);
  });

  it("puts the page's heading on top of the main content, unless include_heading is false", () => {
    const withHeading = renderFormats(ARTICLE_HTML, facts, ['markdown', 'text']);
    expect(withHeading.markdown).toMatch(/^# Tide pools of the north coast\n\nTide pools form where/);
    expect(withHeading.text).toMatch(/^Tide pools of the north coast\n\nTide pools form where/);
    const without = renderFormats(ARTICLE_HTML, facts, ['markdown'], { include_heading: false });
    expect(without.markdown).toMatch(/^Tide pools form where/);
    // The whole body keeps its own <h1> where it is, whatever include_heading says.
    const whole = renderFormats(ARTICLE_HTML, facts, ['markdown'], { only_main_content: false, include_heading: false });
    expect(whole.markdown).toContain('# Tide pools of the north coast\n\n');
  });
});

describe('textOf', () => {
  const text = (html: string) => textOf(parseFragment(html).root().toArray());
  it('lays out blocks, rows, cells, line breaks and keeps <pre> as written', () => {
    expect(text('<h1>T</h1><p>a  b\n c<br>d</p><ul><li>1</li><li>2</li></ul><pre>  x\n\ty</pre><span>e</span>')).toBe('T\n\na b c\nd\n\n1\n2\n\n  x\n\ty\n\ne');
    expect(text('<table><tr><td> a </td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>')).toBe('a\tb\nc\td');
  });
});

describe('charset', () => {
  const page = (head: string, body: Buffer) => Buffer.concat([Buffer.from(`<html><head>${head}</head><body>`), body, Buffer.from('</body></html>')]);
  const sjis = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]);
  it('BOM, then the Content-Type charset, then <meta> in the first 1024 bytes, then a later <meta>', () => {
    expect(sniffCharset(Buffer.from([0xef, 0xbb, 0xbf, 0x68]), 'text/html; charset=shift_jis')).toBe('UTF-8');
    expect(sniffCharset(page('<meta charset="utf-8">', sjis), 'text/html; charset=Shift-JIS')).toBe('Shift_JIS');
    expect(sniffCharset(page('<meta charset="sjis">', sjis), 'text/html')).toBe('Shift_JIS');
    expect(sniffCharset(page('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">', Buffer.from([0xb1])), undefined)).toBe('ISO-8859-2');
    const late = page(`<!-- ${'x'.repeat(5000)} --><META CHARSET="windows-1251">`, Buffer.from([0xc0]));
    expect(sniffCharset(late, 'text/html')).toBe('windows-1251');
    expect(decodeHtml(late, 'text/html')).toContain('<body>А</body>');
  });
  it('undeclared: UTF-8 when valid, else windows-1252 (its 0x80–0x9F mapped, unlike latin1)', () => {
    expect(decodeHtml(Buffer.from('naïve ✓', 'utf8'), undefined)).toBe('naïve ✓');
    expect(decodeHtml(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x96]), 'text/html')).toBe('café €–');
    expect(decodeHtml(Buffer.from([0xe9]), 'text/html; charset=iso-8859-1')).toBe('é');
  });
});

describe('request: formats, only_main_content, include_heading, include_tags, exclude_tags', () => {
  const reject = (body: unknown): AppError => {
    try {
      parseScrapeRequest(body);
    } catch (err) {
      if (err instanceof AppError) return err;
      throw err;
    }
    throw new Error('expected a rejection');
  };
  it('leaves requests without them as they were', () => {
    expect(parseScrapeRequest({ url: BASE })).not.toHaveProperty('formats');
    expect(parseScrapeRequest({ url: BASE })).not.toHaveProperty('only_main_content');
    expect(parseScrapeRequest({ url: BASE })).not.toHaveProperty('include_heading');
    expect(parseScrapeRequest({ url: BASE, formats: ['markdown'], only_main_content: false, include_heading: false, include_tags: ['main'], exclude_tags: ['.ad'] })).toMatchObject({
      formats: ['markdown'],
      only_main_content: false,
      include_heading: false,
      include_tags: ['main'],
      exclude_tags: ['.ad'],
    });
  });
  it('refuses unknown, repeated, empty formats and a screenshot outside browser mode', () => {
    expect(reject({ url: BASE, formats: [] }).messages).toBe('formats must contain at least 1 items');
    expect(reject({ url: BASE, formats: ['png'] }).messages).toMatch(/^formats\.0 must name formats among/);
    expect(reject({ url: BASE, formats: ['screenshot@fullPage'] }).messages).toBe('formats "screenshot@fullPage" is only available in browser mode');
    expect(reject({ url: BASE, formats: ['html'], include_tags: ['a[['] })).toMatchObject({ code: 'INVALID_SELECTOR' });
    expect(reject({ url: BASE, formats: ['html'], include_heading: 'yes' }).messages).toMatch(/^include_heading /);
  });
  it('prices a screenshot +1, other formats nothing', () => {
    expect(scrapeCost(parseScrapeRequest({ url: BASE, formats: ['markdown', 'links', 'metadata', 'rawHtml', 'html', 'text'] }))).toBe(1);
    expect(scrapeCost(parseScrapeRequest({ url: BASE, mode: 'browser', formats: ['screenshot'] }))).toBe(6);
    expect(scrapeCost(parseScrapeRequest({ url: BASE, mode: 'browser', formats: ['screenshot@fullPage'], capture_network: true }))).toBe(7);
  });
});
