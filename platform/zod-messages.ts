/**
 * Zod messages phrased for the spec's error bodies: "<field> <message>", e.g.
 * "email must be an email", "name must be at most 64 characters". Installed once by `installZodMessages`.
 */
import { z } from 'zod';

function describe(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string') return `must be at least ${String(issue.minimum)} characters`;
      if (issue.origin === 'array') return `must contain at least ${String(issue.minimum)} items`;
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${String(issue.maximum)} characters`;
      if (issue.origin === 'array') return `must contain at most ${String(issue.maximum)} items`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}`;
    case 'invalid_format':
      if (issue.format === 'email') return 'must be an email';
      if (issue.format === 'url') return 'must be a URL';
      if (issue.format === 'regex') return 'has characters that are not allowed';
      return `must be a valid ${issue.format}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return undefined;
  }
}

let installed = false;
export function installZodMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: (issue) => describe(issue) });
}

/** An absolute http(s) URL of at most `maxLength` characters (trimmed), with the spec's messages. */
export function absoluteHttpUrl(maxLength: number) {
  return z
    .string()
    .trim()
    .min(1, { error: 'is required' })
    .max(maxLength)
    .refine(
      (u) => {
        try {
          const p = new URL(u).protocol;
          return p === 'http:' || p === 'https:';
        } catch {
          return false;
        }
      },
      { error: 'must be an absolute http(s) URL' },
    );
}
