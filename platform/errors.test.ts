import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { AppError, ERRORS, ERROR_CODES, NON_RETRYABLE_CODES, STATUS_NAME, errorBody, errorCodeOr, isErrorCode } from './errors';

const ROOT = path.resolve(__dirname, '..');

/** Source files of the service (tests, benchmarks and dependencies left out). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return ['node_modules', 'bench', 'test', '.data', '.exp', 'clients'].includes(name) || name.startsWith('.') ? [] : sourceFiles(full);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
}

describe('the error table', () => {
  it('gives every code a status with a reason phrase and a description', () => {
    for (const code of ERROR_CODES) {
      expect(STATUS_NAME[ERRORS[code].status]).toBeDefined();
      expect(ERRORS[code].description.length).toBeGreaterThan(10);
    }
  });

  it('derives what Temporal must not retry from the table', () => {
    expect(NON_RETRYABLE_CODES).toEqual(expect.arrayContaining(['BAD_REQUEST', 'INVALID_URL', 'BLACKLISTED', 'PRIVATE_TARGET', 'RESPONSE_TOO_LARGE', 'INSUFFICIENT_CREDIT', 'WEBHOOK_REJECTED']));
    for (const retryable of ['SCRAPE_FAILED', 'TARGET_ERROR', 'TIMEOUT', 'DEPENDENCY_UNAVAILABLE', 'INTERNAL'] as const) expect(NON_RETRYABLE_CODES).not.toContain(retryable);
  });

  it('puts the code in every body, beside the spec\'s fields', () => {
    expect(errorBody('NOT_FOUND', 'No flow with that id')).toEqual({ statusCode: 404, message: 'No flow with that id', error: 'Not Found', code: 'NOT_FOUND' });
    expect(new AppError('VALIDATION_FAILED', ['a is required', 'b must be a number']).toBody()).toEqual({
      statusCode: 422,
      message: ['a is required', 'b must be a number'],
      error: 'Unprocessable Entity',
      code: 'VALIDATION_FAILED',
    });
    expect(isErrorCode('toString')).toBe(false);
  });

  it('reads a code back from a plain string (a failure type, a stored error), else the fallback', () => {
    expect(errorCodeOr('TARGET_ERROR', 'SCRAPE_FAILED')).toBe('TARGET_ERROR');
    expect(errorCodeOr('Error', 'SCRAPE_FAILED')).toBe('SCRAPE_FAILED');
    expect(errorCodeOr(undefined, 'INTERNAL')).toBe('INTERNAL');
    expect(errorCodeOr('toString', 'SCRAPE_FAILED')).toBe('SCRAPE_FAILED');
  });

  it('names every code the source uses as an error code (bodies, records, failure types)', () => {
    const used = new Map<string, string>();
    const patterns = [/\bcode: '([A-Z][A-Z_]+)'/g, /\btype: '([A-Z][A-Z_]+)'/g, /new AppError\('([A-Z][A-Z_]+)'/g, /nonRetryable\('([A-Z][A-Z_]+)'/g, /errorBody\('([A-Z][A-Z_]+)'/g];
    for (const file of sourceFiles(ROOT)) {
      // The Firecrawl-compatible surface answers in Firecrawl's own codes (INSUFFICIENT_CREDITS,
      // UNKNOWN_ERROR …), mapped from ours in api/firecrawl/errors.ts (docs/firecrawl.md).
      if (path.relative(ROOT, file).startsWith(`api${path.sep}firecrawl${path.sep}`)) continue;
      const text = readFileSync(file, 'utf8');
      for (const pattern of patterns) for (const match of text.matchAll(pattern)) used.set(match[1]!, path.relative(ROOT, file));
    }
    expect(used.size).toBeGreaterThan(15);
    const unknown = [...used].filter(([code]) => !isErrorCode(code)).map(([code, file]) => `${code} (${file})`);
    expect(unknown).toEqual([]);
  });
});

describe('docs/errors.md', () => {
  it('lists exactly the table: every code with its status and retryability', () => {
    const page = readFileSync(path.join(ROOT, 'docs/errors.md'), 'utf8');
    const rows = [...page.matchAll(/^\| `([A-Z_]+)` \| (\d+) \| (yes|no) \| /gm)].map((m) => [m[1], Number(m[2]), m[3] === 'yes']);
    expect(rows).toEqual(ERROR_CODES.map((code) => [code, ERRORS[code].status, ERRORS[code].retryable]));
  });
});
