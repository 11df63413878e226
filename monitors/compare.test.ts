import { diffSnapshots, snapshotOf } from './compare';
import { everyMs, parseMonitorBody } from './request';

describe('snapshots and diffs', () => {
  it('removes ignored patterns and trailing blank noise from the markdown', () => {
    const snap = snapshotOf({ markdown: '# Prices\n\nWidget: 10 EUR   \n\n\n\nUpdated at 12:01:33\n' }, 'markdown', { patterns: ['Updated at [0-9:]+'] });
    expect(snap).toBe('# Prices\n\nWidget: 10 EUR');
  });

  it('gives a unified diff of the markdown with the lines added and removed', () => {
    const diff = diffSnapshots('# Prices\n\nWidget: 10 EUR\nGadget: 5 EUR', '# Prices\n\nWidget: 12 EUR\nGadget: 5 EUR\nGizmo: 1 EUR', 'markdown', { before: 'a', after: 'b' });
    expect(diff.added).toBe(2);
    expect(diff.removed).toBe(1);
    expect(diff.markdown).toContain('--- previous\ta');
    expect(diff.markdown!.split('\n')).toEqual(expect.arrayContaining(['-Widget: 10 EUR', '+Widget: 12 EUR', '+Gizmo: 1 EUR', ' Gadget: 5 EUR']));
  });

  it('diffs structured output by JSON path', () => {
    const before = snapshotOf({ data: [{ name: 'price', values: ['10'] }, { name: 'stock', values: ['in'] }] }, 'data', { patterns: [] })!;
    const after = snapshotOf({ data: [{ name: 'price', values: ['12', '11'] }, { name: 'stock', values: ['in'] }] }, 'data', { patterns: [] })!;
    expect(diffSnapshots(before, after, 'data', { before: '', after: '' }).changes).toEqual([
      { type: 'changed', path: '$[0].values[0]', before: '10', after: '12' },
      { type: 'added', path: '$[0].values[1]', after: '11' },
    ]);
    expect(diffSnapshots('{"a b":1}', '{}', 'json', { before: '', after: '' }).changes).toEqual([{ type: 'removed', path: '$["a b"]', before: 1 }]);
  });

  it('has no snapshot when the result lacks what is compared', () => {
    expect(snapshotOf({}, 'markdown', { patterns: [] })).toBeUndefined();
    expect(snapshotOf({ markdown: 'x' }, 'data', { patterns: [] })).toBeUndefined();
  });
});

describe('monitor definitions', () => {
  const valid = { name: 'm', request: { url: 'https://example.com/' }, schedule: { every: '15m' } };
  const failure = (body: unknown, min = 60_000) => {
    try {
      parseMonitorBody(body, min);
    } catch (error) {
      return error as { code: string; messages: string | string[] };
    }
    throw new Error('accepted');
  };

  it('reads intervals', () => {
    expect(everyMs('30s')).toBe(30_000);
    expect(everyMs('6h')).toBe(21_600_000);
    expect(everyMs('0s')).toBeUndefined();
    expect(everyMs('5 m')).toBeUndefined();
  });

  it('accepts a valid monitor with defaults, the markdown format added for the check', () => {
    const def = parseMonitorBody(valid, 60_000);
    expect(def).toMatchObject({ compare: 'markdown', ignore: { selectors: [], patterns: [] }, request: { url: 'https://example.com/', mode: 'http' } });
    expect(def.request).not.toHaveProperty('async');
  });

  it('accepts mode auto: its checks run on the starting engine (a monitor check does not climb), stored without escalate', () => {
    const def = parseMonitorBody({ ...valid, request: { url: 'https://example.com/', mode: 'auto' } }, 60_000);
    expect(def.request).toMatchObject({ url: 'https://example.com/', mode: 'http' });
    expect(def.request).not.toHaveProperty('escalate');
    const browserFirst = parseMonitorBody({ ...valid, request: { url: 'https://example.com/', mode: 'auto', formats: ['screenshot'] } }, 60_000);
    expect(browserFirst.request).toMatchObject({ mode: 'browser' });
  });

  it('refuses intervals under the minimum, bad regexes and cron, and compare without its output', () => {
    expect(failure({ ...valid, schedule: { every: '30s' } })).toMatchObject({ code: 'VALIDATION_FAILED', messages: ['schedule.every must be at least 60s (MONITOR_MIN_INTERVAL_MS)'] });
    expect(failure({ ...valid, ignore: { patterns: ['(unclosed'] } })).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(failure({ ...valid, ignore: { patterns: ['x'.repeat(201)] } })).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(failure({ ...valid, schedule: { cron: '* *' } })).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(failure({ ...valid, schedule: { cron: '0 9 * * *', timezone: 'Mars/Olympus' } })).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(failure({ ...valid, compare: 'data' })).toMatchObject({ code: 'VALIDATION_FAILED', messages: ['compare "data" needs request.selectors'] });
    expect(failure({ ...valid, request: { url: 'nope' } })).toMatchObject({ code: 'BAD_REQUEST' });
    expect(failure({ ...valid, ignore: { selectors: ['div[['] } })).toMatchObject({ code: 'INVALID_SELECTOR' });
    expect(failure({ ...valid, request: { url: 'https://example.com/', async: true } })).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
