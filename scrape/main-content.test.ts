import { parseHTML } from 'linkedom';
import { MAX_DEPTH, MAX_INPUT_CHARS, choose, estimatedDepth, extractMainContent, stripScripts } from './main-content';
import { pageHeading } from './main-content/heading';
import { densestRegion } from './main-content/regions';

const paragraph = (n: number): string =>
  `<p>Paragraph ${n} of the story: the harbour authority said on Tuesday that the new breakwater, built over three winters, had already halved the damage done by storms to the fishing fleet, and that a second phase would start in spring.</p>`;

const ARTICLE_PAGE = `<!doctype html><html><head><title>Breakwater halves storm damage</title><base href="/news/"></head><body>
  <header class="site-header"><a href="/">Harbour Times</a><nav><a href="/sport">Sport</a> <a href="/weather">Weather</a> <a href="/jobs">Jobs</a></nav></header>
  <div id="cookie-banner" class="cookie-consent">We use cookies to improve your experience. <button>Accept all</button></div>
  <div class="ad-slot adsbygoogle">Advertisement: buy a boat today</div>
  <main><article>
    <h1>Breakwater halves storm damage</h1>
    <div class="share-bar"><a href="https://facebook.example/share">Share on Facebook</a> <a href="https://twitter.example/share">Tweet this</a></div>
    ${paragraph(1)}
    ${paragraph(2)}
    <p>See <a href="breakwater-plans.html">the plans</a> and <a href="#phase-two">phase two</a>. <img src="../img/breakwater.jpg" srcset="../img/b-small.jpg 480w, /img/b-large.jpg 1200w" alt="The breakwater"></p>
    ${paragraph(3)}
    <aside class="newsletter-signup">Sign up to our newsletter for daily harbour news</aside>
  </article></main>
  <footer><p>© Harbour Times 2026. All rights reserved. Contact us. Privacy policy.</p></footer>
</body></html>`;

describe('extractMainContent', () => {
  it('keeps the article, drops navigation, banners, ads and share bars, and makes URLs absolute', () => {
    const html = extractMainContent(ARTICLE_PAGE, 'https://harbour.example/2026/story');
    expect(html).not.toBeNull();
    for (const n of [1, 2, 3]) expect(html).toContain(`Paragraph ${n} of the story`);
    for (const gone of ['Sport', 'Weather', 'We use cookies', 'Advertisement', 'Share on Facebook', 'Sign up to our newsletter', 'All rights reserved']) {
      expect(html).not.toContain(gone);
    }
    // <base href="/news/"> resolved against the page URL, then every link and image source against it.
    expect(html).toContain('href="https://harbour.example/news/breakwater-plans.html"');
    expect(html).toContain('href="https://harbour.example/news/#phase-two"');
    expect(html).toContain('src="https://harbour.example/img/breakwater.jpg"');
    expect(html).toContain('srcset="https://harbour.example/img/b-small.jpg 480w, https://harbour.example/img/b-large.jpg 1200w"');
    expect(html).not.toMatch(/(href|src)="(?!https:\/\/)/);
    expect(html).not.toContain('readability-page-1');
  });

  it('returns null for a page with nothing article-like', () => {
    const links = Array.from({ length: 30 }, (_, i) => `<li><a href="/section-${i}">Section number ${i}</a></li>`).join('');
    const page = `<html><body><nav><ul>${links}</ul></nav><div class="grid"><ul>${links}</ul></div><form><input name="q"><button>Search</button></form></body></html>`;
    expect(extractMainContent(page, 'https://portal.example/')).toBeNull();
    expect(extractMainContent('', 'https://portal.example/')).toBeNull();
    expect(extractMainContent('<html><body><p>Hello.</p></body></html>', 'https://portal.example/')).toBeNull();
  });

  it('never throws on malformed input', () => {
    const inputs = [
      '<<<>>><!-- <a href="x <p <div></span></td>'.repeat(2_000),
      `<html><body><article>${paragraph(1)}${paragraph(2)}<p>unclosed <b><i>tags <table><tr><td>cell</article></b></div></div>`,
      '<script>never closed ' + paragraph(1),
      `<html><body><article><h1>Title</h1>${paragraph(1)}<p>See <a href="http://[bad">this</a> <img src="http://%zz"><img srcset=",,, ,"></p>${paragraph(2)}${paragraph(3)}</article></body></html>`,
      '\u0000\uFFFF\uD800 binary-ish \u0007',
    ];
    for (const input of inputs) {
      expect(() => extractMainContent(input, 'https://x.example/')).not.toThrow();
    }
    // Unresolvable URLs are dropped rather than passed on relative.
    const bad = extractMainContent(inputs[3]!, 'https://x.example/');
    expect(bad).not.toBeNull();
    expect(bad).not.toContain('http://[bad');
  });

  it('bounds the work on huge and deeply nested input', () => {
    // Nesting deeper than MAX_DEPTH is refused before parsing (parser and Readability degrade on it).
    const deep = `${'<div>'.repeat(100_000)}${paragraph(1)}${'</div>'.repeat(100_000)}`;
    expect(estimatedDepth(deep)).toBeGreaterThan(MAX_DEPTH);
    expect(extractMainContent(deep, 'https://x.example/')).toBeNull();
    expect(extractMainContent('<b><i>'.repeat(100_000), 'https://x.example/')).toBeNull();
    // Megabytes of inline script do not count towards the input cap; the article after them is found.
    const bloated = `<html><head><script>${'var x = 1;'.repeat(500_000)}</script></head><body><article>${paragraph(1)}${paragraph(2)}</article></body></html>`;
    expect(bloated.length).toBeGreaterThan(MAX_INPUT_CHARS);
    expect(extractMainContent(bloated, 'https://x.example/')).toContain('Paragraph 2 of the story');
    // Over the cap, the document is cut: the result is at most the cap.
    const huge = `<html><body><article>${paragraph(1).repeat(20_000)}</article></body></html>`;
    expect(huge.length).toBeGreaterThan(2 * MAX_INPUT_CHARS);
    const out = extractMainContent(huge, 'https://x.example/') ?? '';
    expect(out.split('Paragraph 1 of the story').length - 1).toBeLessThanOrEqual(Math.ceil(MAX_INPUT_CHARS / paragraph(1).length));
  });

  it('strips script and style text in one pass, case-insensitively', () => {
    expect(stripScripts('a<SCRIPT type="x">1<2</script >b<style>p{}</STYLE>c<script>open')).toBe('abc');
  });

  it("opens the content with the page's heading, once; heading: false leaves it out", () => {
    const html = extractMainContent(ARTICLE_PAGE, 'https://harbour.example/2026/story')!;
    expect(html).toMatch(/^<h1>Breakwater halves storm damage<\/h1>/);
    expect(html.split('Breakwater halves storm damage')).toHaveLength(2);
    const without = extractMainContent(ARTICLE_PAGE, 'https://harbour.example/2026/story', { heading: false })!;
    expect(without).not.toContain('Breakwater halves storm damage');
    expect(without).toContain('Paragraph 1 of the story');
  });

  it("finds the page's heading: the <h1> the title names, else og:title, else the title without the site's name", () => {
    const doc = (html: string) => parseHTML(html).document;
    expect(pageHeading(doc('<title>Storm season | Harbour Times</title><h1>Harbour Times</h1><article><h1>Storm season ahead</h1></article>'))).toBe('Storm season ahead');
    expect(pageHeading(doc('<title>Harbour Times</title><h1>Harbour Times</h1><main><h1>Tides</h1></main>'))).toBe('Tides');
    expect(pageHeading(doc('<head><meta property="og:title" content="Open graph title"><title>T - S</title></head><p>x</p>'))).toBe('Open graph title');
    expect(pageHeading(doc('<title>Harbour Times – A long story about the breakwater</title><p>x</p>'))).toBe('A long story about the breakwater');
    expect(pageHeading(doc('<p>no title at all</p>'))).toBeNull();
  });

  it('keeps every post of a forum thread, not only the longest', () => {
    const post = (n: number, words: number) =>
      `<div class="post"><div class="author"><a href="/u/${n}">user${n}</a> <span>May ${n}, 2024</span></div>` +
      `<div class="body"><p>${`Post ${n} says the pump stops after an hour and the reset does not help at all. `.repeat(words)}</p></div>` +
      `<div class="actions"><a href="/reply">Reply</a> <a href="/quote">Quote</a> <a href="/report">Report</a></div></div>`;
    const menu = Array.from({ length: 12 }, (_, i) => `<li><a href="/c/${i}">Category ${i}</a></li>`).join('');
    const page = `<html><head><title>Pump stops after an hour - Forum</title></head><body>
      <div class="top"><ul>${menu}</ul></div>
      <div class="thread"><h1>Pump stops after an hour</h1>${post(1, 8)}${post(2, 3)}${post(3, 2)}${post(4, 3)}${post(5, 2)}</div>
      <div class="side"><ul>${menu}</ul></div></body></html>`;
    const html = extractMainContent(page, 'https://forum.example/t/1')!;
    for (const n of [1, 2, 3, 4, 5]) expect(html).toContain(`Post ${n} says`);
    expect(html).not.toContain('Category 3');
    expect(html).toMatch(/^<h1>Pump stops after an hour<\/h1>/);
  });

  it('reads content served inside <noscript> for clients without scripts, and only then', () => {
    const posts = [1, 2, 3].map((n) => `<div class="post"><p>Reply ${n}: the pump needs a new seal, the old one cracked in the cold and leaked overnight.</p></div>`).join('');
    const served = `<html><body><div id="app">Loading…</div><noscript><h1>Pump stops</h1>${posts}</noscript></body></html>`;
    const html = extractMainContent(served, 'https://forum.example/t/1')!;
    for (const n of [1, 2, 3]) expect(html).toContain(`Reply ${n}:`);
    // A <noscript> notice beside the rendered content stays out of it.
    const rendered = `<html><body><article><h1>Pump stops</h1>${posts}${paragraph(1)}</article><noscript>Please enable JavaScript to use this site.</noscript></body></html>`;
    expect(extractMainContent(rendered, 'https://forum.example/t/1')).not.toContain('enable JavaScript');
  });

  it('takes the densest region as a copy, leaving the document Readability reads next as it was', () => {
    const links = Array.from({ length: 8 }, (_, i) => `<li><a href="/more/${i}">More story ${i}</a></li>`).join('');
    const { document } = parseHTML(`<html><body><nav><a href="/">Home</a></nav><div id="story">${paragraph(1)}<ul id="more">${links}</ul>${paragraph(2)}</div></body></html>`);
    const before = document.body.innerHTML;
    const region = densestRegion(document.body)!;
    expect(region.textContent).toContain('Paragraph 2 of the story');
    expect(region.textContent).not.toContain('More story 3');
    expect(document.body.innerHTML).toBe(before);
  });

  it("replaces Readability's article by the region holding it and four times its text, unless the page declares an article", () => {
    const { document } = parseHTML(`<html><body><div id="article">${paragraph(1)}</div><div id="region">${[1, 2, 3, 4, 5].map(paragraph).join('')}</div></body></html>`);
    const article = document.querySelector('#article')!;
    const region = document.querySelector('#region')!;
    expect(choose(article, region, false)).toBe(region);
    expect(choose(article, region, true)).toBe(article);
    // Less than four times the text: Readability's article stays.
    region.lastElementChild!.remove();
    region.lastElementChild!.remove();
    expect(choose(article, region, false)).toBe(article);
    // Readability found nothing: the region, article or not.
    expect(choose(null, region, true)).toBe(region);
  });
});

describe('extractMainContent: what sits inside the article stays', () => {
  // The Firecrawl SDK's fixture: a short margin note (class "river-note") inside <article>.
  const story = Array.from({ length: 4 }, (_, i) => `<p>Part ${i + 1}: the river rose over the old stone bridge overnight and the town kept watch on the banks until the water fell back at dawn.</p>`).join('');
  const page = (note: string): string => `<html><head><title>The river rose | Valley News</title></head><body>
    <nav><a href="/">Home</a> <a href="/news">News</a></nav>
    <article><h1>The river rose</h1>${story}${note}</article>
    <footer>Valley News, all rights reserved</footer></body></html>`;

  it.each([
    ['an <aside>', '<aside class="river-note"><p>Levels read from the county gauge.</p></aside>'],
    ['a <p>', '<p class="river-note">Levels read from the county gauge.</p>'],
  ])('keeps a short note as %s and the <h1>', (_kind, note) => {
    const html = extractMainContent(page(note), 'https://valley.example/river');
    expect(html).toContain('Levels read from the county gauge.');
    expect(html).toMatch(/<h1>The river rose<\/h1>/);
    for (const n of [1, 2, 3, 4]) expect(html).toContain(`Part ${n}:`);
    expect(html).not.toContain('all rights reserved');
  });

  it('keeps a short paragraph, a <figure> caption, a table and a note inside the article, and the <h1>', () => {
    const inside = `<p>Short one.</p><figure><img src="/bridge.jpg" alt="The bridge"><figcaption>The bridge at dawn.</figcaption></figure>
      <table><tr><th>Gauge</th><th>Level</th></tr><tr><td>Mill weir</td><td>3.2 m</td></tr></table>
      <p class="note">Note: the levels are provisional.</p>`;
    const html = extractMainContent(page(inside), 'https://valley.example/river');
    expect(html).toMatch(/<h1>The river rose<\/h1>/);
    for (const text of ['Short one.', 'The bridge at dawn.', 'Mill weir', '3.2 m', 'Note: the levels are provisional.']) expect(html).toContain(text);
    for (const n of [1, 2, 3, 4]) expect(html).toContain(`Part ${n}:`);
  });

  it('drops a "Related"/"Mehr zum Thema" heading with its list of links at the end of the article', () => {
    for (const heading of ['Related stories', 'Mehr zum Thema', 'Lesen Sie auch']) {
      const related = `<h2>${heading}</h2><ul><li><a href="/a">Dam opens its gates</a></li><li><a href="/b">Ferry back in service</a></li><li><a href="/c">Floods a year on</a></li></ul>`;
      const html = extractMainContent(page(related), 'https://valley.example/river');
      expect(html).toContain('Part 4:');
      expect(html).not.toContain(heading);
      expect(html).not.toContain('Ferry back in service');
    }
  });

  it('still drops an <aside> of links or one named as boilerplate inside the article', () => {
    const links = '<aside><a href="/a">Flood map</a> <a href="/b">Road closures</a> <a href="/c">Weather</a></aside>';
    const promo = '<aside class="newsletter-box">Get the Valley briefing every morning.</aside>';
    const html = extractMainContent(page(links + promo), 'https://valley.example/river');
    expect(html).toContain('Part 4:');
    expect(html).not.toContain('Road closures');
    expect(html).not.toContain('Valley briefing');
  });

  it('finds the article of a page whose text the parser leaves outside <body> (no <body> tag, a stray </noscript>)', () => {
    const noBody = `<html><head><title>Storm</title></head><noscript></noscript></noscript><div id="page"><h1>Storm closes the pass</h1>${story}</div></html>`;
    const html = extractMainContent(noBody, 'https://valley.example/storm');
    expect(html).not.toBeNull();
    for (const n of [1, 2, 3, 4]) expect(html).toContain(`Part ${n}:`);
  });

  it('drops a comments section that outweighs a short post, and keeps the post', () => {
    const comments = Array.from({ length: 12 }, (_, i) => `<li class="comment"><p>Reader ${i + 1} wrote: what a lovely dress, the fabric looks unusual and the cut is very well done, where can I buy one like it this season?</p></li>`).join('');
    const blog = `<html><head><title>At the show | A blog</title></head><body><div id="content">
      <div class="post"><h1>At the show</h1><p>Leave it to the designer to dress the cutest guests. There is something incredible about this dress: the fabric is unusual and the cut is a very well done baby doll cut.</p></div>
      <div id="comments" class="comments"><h3>12 comments</h3><ol class="commentlist">${comments}</ol></div></div></body></html>`;
    const html = extractMainContent(blog, 'https://blog.example/show');
    expect(html).toContain('Leave it to the designer');
    expect(html).not.toContain('Reader 3 wrote');
  });

  it('finds the article of a page served without <html>, <head> or <body> (a bare fragment, as old sites serve)', () => {
    const fragment = `<div class="banner">Valley News</div><table><tr><td><h1>Storm closes the pass</h1>${story}</td></tr></table><p><a href="/">Home</a></p>`;
    const html = extractMainContent(fragment, 'https://valley.example/storm');
    expect(html).not.toBeNull();
    for (const n of [1, 2, 3, 4]) expect(html).toContain(`Part ${n}:`);
  });
});
