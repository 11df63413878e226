/**
 * What the run record keeps of a request's secrets: nothing (docs/scraping.md, "Cookies and
 * headers"). `scrape_run.request` is read by the owner (GET /api/users/scrape-runs/:id, the run
 * bodies), by operators and by backups, and the scrape never reads it back: the scrape gets its
 * request from the workflow input (encrypted in Temporal: platform/temporal-payload-codec.ts).
 * So before a request is stored, the secret parts are replaced by REDACTED, keeping their shape
 * (the owner sees which cookie, header or action there was):
 *  - `cookies[].value`;
 *  - `headers` whose name says credential (cookie, authorization, proxy-authorization, and any name
 *    with auth, token, secret, key, session, password, signature or csrf in it);
 *  - the text of `write` actions and the script of `executeJavascript` ones (it may hold a token);
 *  - `fill_form.fields` values and a POST `body` (a login form's credentials travel there).
 */
export const REDACTED = '[redacted]';

const SECRET_HEADER = /^(cookie|authorization|proxy-authorization)$|auth|token|secret|key|session|passw|signature|csrf|xsrf/i;

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function redactHeaders(headers: unknown): unknown {
  if (!isRecord(headers)) return headers;
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? REDACTED : value]));
}

function redactAction(action: unknown): unknown {
  if (!isRecord(action)) return action;
  if (action.type === 'write' && 'text' in action) return { ...action, text: REDACTED };
  if (action.type === 'executeJavascript' && 'script' in action) return { ...action, script: REDACTED };
  return action;
}

/** The request as the run record keeps it (a copy; the argument is not changed). Idempotent. */
export function redactRequestSecrets<T>(request: T): T {
  if (!isRecord(request)) return request;
  const out: Record<string, unknown> = { ...request };
  if (Array.isArray(out.cookies)) out.cookies = (out.cookies as unknown[]).map((cookie) => (isRecord(cookie) ? { ...cookie, value: REDACTED } : cookie));
  if ('headers' in out) out.headers = redactHeaders(out.headers);
  if (Array.isArray(out.actions)) out.actions = (out.actions as unknown[]).map(redactAction);
  if (isRecord(out.fill_form) && isRecord(out.fill_form.fields)) {
    out.fill_form = { ...out.fill_form, fields: Object.fromEntries(Object.keys(out.fill_form.fields).map((field) => [field, REDACTED])) };
  }
  if (out.body !== undefined && out.body !== null) out.body = REDACTED;
  // A crawl's or batch's page template carries its scrape options under `scrape`.
  if (isRecord(out.scrape)) out.scrape = redactRequestSecrets(out.scrape);
  return out as T;
}
