import type { z } from 'zod';
import { AppError } from './errors';
import { installZodMessages } from './zod-messages';

installZodMessages();

/** Human message for one zod issue, in the spec's forms: "<field> is required", "<field> must ...". */
export function issueMessage(issue: z.core.$ZodIssue): string {
  const field = issue.path.length ? issue.path.join('.') : 'body';
  if (issue.code === 'unrecognized_keys') return `${issue.keys.join(', ')} ${issue.keys.length > 1 ? 'are' : 'is'} not allowed`;
  return `${field} ${issue.message}`;
}

/**
 * Parses a request body; failures → 400 naming each field (a required field missing or a rule
 * broken is a Bad Request in the spec). Use `parseOrUnprocessable` where the contract says 422.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.map(issueMessage);
  throw new AppError('BAD_REQUEST', messages.length === 1 ? messages[0]! : messages);
}

/** Like `parseBody`, but failures are 422 with every failed item listed. */
export function parseOrUnprocessable<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new AppError('VALIDATION_FAILED', parsed.error.issues.map(issueMessage));
}
