/** The JSON HTTP caller of the end-to-end tests. */

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Answer {
  status: number;
  /** The parsed JSON body; undefined when the answer has none (204). */
  body: Json;
}

export interface FullAnswer extends Answer {
  headers: Headers;
  text: string;
}

/**
 * Sends `body` as JSON (with its content type), or a string as is (raw webhook payloads: the
 * caller sets the headers), and answers the status, headers, text and parsed body.
 */
export async function request(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<FullAnswer> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: (text ? JSON.parse(text) : undefined) as Json };
}

/** `request` answering only `{ status, body }`, so tests can compare whole answers. */
export async function call(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const { status, body: parsed } = await request(baseUrl, method, path, headers, body);
  return { status, body: parsed };
}
