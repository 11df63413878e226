/**
 * The JSON body parser of the API's routes. PostgreSQL refuses U+0000 (NUL) in text and jsonb
 * columns, where requests, flow definitions and templates are stored, so a body whose strings
 * (values or keys) hold one is refused up front with 400 BAD_REQUEST naming where, instead of
 * failing at the write (docs/api.md, "Request bodies").
 */
import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { AppError } from '../../platform/errors';

const ESCAPED_NUL = Buffer.from('\\u0000');
const mayHoldNul = new WeakSet<IncomingMessage>();

/** Where the first string holding U+0000 is, as a path (`selectors[0].name`), or null. */
export function findNulCharacter(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path || '(the body)' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNulCharacter(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\0')) return at;
      const found = findNulCharacter(item, at);
      if (found) return found;
    }
  }
  return null;
}

export function jsonBody(limit: string): RequestHandler[] {
  return [
    // JSON can only carry U+0000 escaped, so bodies without the escape skip the walk below.
    express.json({ limit, verify: (req, _res, buf) => void (buf.includes(ESCAPED_NUL) && mayHoldNul.add(req)) }),
    (req, _res, next) => {
      const at = mayHoldNul.has(req) ? findNulCharacter(req.body) : null;
      next(at ? new AppError('BAD_REQUEST', `strings in the request body must not contain NUL (U+0000) characters: ${at}`) : undefined);
    },
  ];
}
