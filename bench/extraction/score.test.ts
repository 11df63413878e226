import { htmlToText, macro, scoreTokens, tokenize } from './score';
import { splitOf } from './pages';

describe('extraction benchmark scoring', () => {
  it('tokenises text content lower-cased on non-letter/digit characters', () => {
    expect(tokenize("Don't STOP—the 2nd café!")).toEqual(['don', 't', 'stop', 'the', '2nd', 'café']);
    expect(tokenize('細菌型感冒 ok2 流感')).toEqual(['細', '菌', '型', '感', '冒', 'ok2', '流', '感']);
    expect(htmlToText('<p>end</p><p>start<br>next</p><script>no</script>')).toMatch(/^\s*end\s+start\s+next\s*$/);
  });

  it('computes bag-of-words precision, recall and F1 by hand', () => {
    // predicted: a a b c     expected: a b b d e
    // matches: a (min 2,1 = 1) + b (min 1,2 = 1) = 2; precision 2/4, recall 2/5, F1 = 2·0.5·0.4/0.9 = 4/9.
    const s = scoreTokens(['a', 'a', 'b', 'c'], ['a', 'b', 'b', 'd', 'e']);
    expect(s.precision).toBeCloseTo(0.5, 10);
    expect(s.recall).toBeCloseTo(0.4, 10);
    expect(s.f1).toBeCloseTo(4 / 9, 10);
    expect(scoreTokens([], ['a'])).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(scoreTokens(['x'], ['y']).f1).toBe(0);
    expect(scoreTokens(['a', 'b'], ['b', 'a']).f1).toBe(1);
  });

  it('averages per page (macro)', () => {
    const m = macro([{ precision: 1, recall: 0.5, f1: 2 / 3 }, { precision: 0, recall: 0, f1: 0 }]);
    expect(m).toEqual({ precision: 0.5, recall: 0.25, f1: 1 / 3 });
  });

  it('splits pages deterministically', () => {
    expect(splitOf('readability', 'nytimes-1')).toBe(splitOf('readability', 'nytimes-1'));
    const names = Array.from({ length: 200 }, (_, i) => `page-${i}`);
    const dev = names.filter((n) => splitOf('zyte', n) === 'dev').length;
    expect(dev).toBeGreaterThan(60);
    expect(dev).toBeLessThan(140);
  });
});
