import { DatabaseUnreachableError, isDatabaseUnavailable, jsonbText, untilDatabaseAnswers } from './sql';

describe('untilDatabaseAnswers', () => {
  it('waits through an outage and returns what the statement returns once PostgreSQL answers', async () => {
    let calls = 0;
    const result = await untilDatabaseAnswers(() => {
      calls++;
      return calls < 3 ? Promise.reject(new DatabaseUnreachableError('PostgreSQL cannot be reached (ECONNREFUSED)')) : Promise.resolve('row');
    });
    expect({ result, calls }).toEqual({ result: 'row', calls: 3 });
  });

  it('throws any other error at once: a failing statement is not an outage', async () => {
    let calls = 0;
    const sqlError = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505', severity: 'ERROR' });
    await expect(
      untilDatabaseAnswers(() => {
        calls++;
        return Promise.reject(sqlError);
      }),
    ).rejects.toBe(sqlError);
    expect(calls).toBe(1);
  });

  it('gives up when its signal aborts (the activity was cancelled)', async () => {
    const controller = new AbortController();
    let calls = 0;
    const outage = new DatabaseUnreachableError('PostgreSQL cannot be reached (ECONNREFUSED)');
    await expect(
      untilDatabaseAnswers(() => {
        calls++;
        if (calls === 2) controller.abort();
        return Promise.reject(outage);
      }, controller.signal),
    ).rejects.toBe(outage);
    expect(calls).toBe(2);
  });

  it('knows a restarting server (57P01 with a severity) from a socket error of some other client', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:80'), { code: 'ECONNREFUSED' }))).toBe(false);
  });
});

describe('jsonbText', () => {
  it('stores each U+0000 as U+FFFD and leaves an escaped backslash before "u0000" as it was', () => {
    const value = { html: 'a\0b', text: 'back\\u0000slash', list: ['x\\\0y', '\0'], [`k\0`]: 1 };
    expect(JSON.parse(jsonbText(value))).toEqual({ html: 'a\uFFFDb', text: 'back\\u0000slash', list: ['x\\\uFFFDy', '\uFFFD'], [`k\uFFFD`]: 1 });
    expect(jsonbText({ plain: 'text' })).toBe(JSON.stringify({ plain: 'text' }));
  });
});
