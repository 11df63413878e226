/**
 * Path ids. Every id this service issues is a UUID or a library-generated token: letters, digits,
 * `-` and `_`, at most 128 characters. Anything else (a NUL byte, `%2F`, 10 kB of text) cannot
 * name a resource: it answers 404 in the standard body before any query runs (PostgreSQL refuses
 * a NUL byte in text, which used to surface as a 500).
 */
import type { Router } from 'express';
import { z } from 'zod';
import { AppError } from '../lib/errors';

export const idSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

export const MALFORMED_ID_MESSAGE = 'No resource with that id: ids are 1 to 128 letters, digits, "-" or "_"';

/** Answers 404 for a malformed value of each named path parameter of `router`'s routes. */
export function rejectMalformedIds(router: Router, ...names: string[]): void {
  for (const name of names) {
    router.param(name, (_req, _res, next, value: unknown) => {
      next(idSchema.safeParse(value).success ? undefined : new AppError('NOT_FOUND', MALFORMED_ID_MESSAGE));
    });
  }
}
