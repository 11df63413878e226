/**
 * Request contracts of the account routes. Messages follow the spec's forms:
 * "<field> is required", "<field> must be an email", "<field> must be longer than <n> characters".
 */
import { z } from 'zod';
import { KEY_DEFAULT_PREFIX, KEY_NAME_MAX_LENGTH, KEY_PREFIX_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../accounts/auth-config';
import { AppError } from '../../platform/errors';
import { issueMessage } from '../../platform/validate';

const email = z.email().max(254);
/** "longer than 8 characters": 9 or more. */
const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { message: `must be longer than ${PASSWORD_MIN_LENGTH - 1} characters` })
  .max(PASSWORD_MAX_LENGTH);

/** POST /api/auth/sign-in/email. Unknown fields are dropped before the library sees the body. */
export const signInSchema = z.object({
  email,
  password,
  rememberMe: z.boolean().optional(),
  callbackURL: z.string().max(2048).optional(),
});

/** POST /api/auth/sign-up/email. */
export const signUpSchema = z.object({
  name: z.string().trim().min(1, { message: 'must not be empty' }).max(100),
  email,
  password,
  rememberMe: z.boolean().optional(),
  callbackURL: z.string().max(2048).optional(),
});

/** POST /api/users/create-api-keys. */
export const createApiKeySchema = z.strictObject({
  name: z.string().trim().min(1, { message: 'must not be empty' }).max(KEY_NAME_MAX_LENGTH),
  prefix: z
    .string()
    .min(1, { message: 'must not be empty' })
    .max(KEY_PREFIX_MAX_LENGTH)
    .regex(/^[a-zA-Z0-9_-]+$/, { message: 'must contain only letters, digits, _ and -' })
    .default(KEY_DEFAULT_PREFIX),
  /** Optional lifetime in seconds (1 to 365 days); without it the key lasts until revoked. */
  expiresIn: z
    .number()
    .int()
    .min(86_400)
    .max(365 * 86_400)
    .optional(),
});

/** GET /api/users/api-keys/stats?days=N */
export const statsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30),
});

function isMissing(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'invalid_type' && issue.input === undefined;
}

/**
 * The account routes' rule: a body that is not an object, or lacks a required field, is a
 * 400 naming the field(s) ("name is required"); a body whose fields are present but break a rule
 * is a 422 listing every failed item.
 */
export function parseAccountBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('BAD_REQUEST', 'body must be a JSON object');
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.map(issueMessage);
  if (parsed.error.issues.some(isMissing)) throw new AppError('BAD_REQUEST', messages.length === 1 ? messages[0]! : messages);
  throw new AppError('VALIDATION_FAILED', messages);
}
