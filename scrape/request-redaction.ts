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

/** A plain object (not null, not an array): what a request's JSON maps are. */
export const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Where a secret sits in a request, stable across edits of its other parts: `cookie:["<name>","<domain>","<path>"]`,
 * `header:<lower-case name>`, `action:<index>:<type>`, `fill_form:<field>`, `body`; `scrape/` before
 * those of a page template's scrape options.
 */
export type SecretPosition = string;

/**
 * The request with each secret value replaced by `replace(value, position)` (a copy; the argument
 * is not changed): exactly the values the run record redacts (above). The one walk behind
 * redaction here and the sealing of saved definitions (sessions/request-secrets.ts).
 */
export function mapRequestSecrets<T>(request: T, replace: (value: unknown, position: SecretPosition) => unknown, prefix = ''): T {
  if (!isRecord(request)) return request;
  const out: Record<string, unknown> = { ...request };
  if (Array.isArray(out.cookies)) {
    out.cookies = (out.cookies as unknown[]).map((cookie) =>
      isRecord(cookie) ? { ...cookie, value: replace(cookie.value, `${prefix}cookie:${JSON.stringify([cookie.name, cookie.domain ?? '', cookie.path ?? ''])}`) } : cookie,
    );
  }
  if (isRecord(out.headers)) {
    out.headers = Object.fromEntries(Object.entries(out.headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? replace(value, `${prefix}header:${name.toLowerCase()}`) : value]));
  }
  if (Array.isArray(out.actions)) {
    out.actions = (out.actions as unknown[]).map((action, index) => {
      if (!isRecord(action)) return action;
      if (action.type === 'write' && 'text' in action) return { ...action, text: replace(action.text, `${prefix}action:${index}:write`) };
      if (action.type === 'executeJavascript' && 'script' in action) return { ...action, script: replace(action.script, `${prefix}action:${index}:executeJavascript`) };
      return action;
    });
  }
  if (isRecord(out.fill_form) && isRecord(out.fill_form.fields)) {
    const fields = out.fill_form.fields;
    out.fill_form = { ...out.fill_form, fields: Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, replace(value, `${prefix}fill_form:${field}`)])) };
  }
  if (out.body !== undefined && out.body !== null) out.body = replace(out.body, `${prefix}body`);
  // A crawl's or batch's page template carries its scrape options under `scrape`.
  if (isRecord(out.scrape)) out.scrape = mapRequestSecrets(out.scrape, replace, `${prefix}scrape/`);
  return out as T;
}

/** The request as the run record keeps it (a copy; the argument is not changed). Idempotent. */
export function redactRequestSecrets<T>(request: T): T {
  return mapRequestSecrets(request, () => REDACTED);
}
