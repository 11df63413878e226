/** The JSON HTTP caller of the end-to-end tests. */
import { Agent } from 'undici';

let ownConnections: Agent | undefined;

/**
 * From now on, every request of these helpers (and `testFetch`) goes on a connection of its own,
 * closed after its answer, instead of a pooled keep-alive one; `false` restores pooling. For a
 * test that talks through a TCP balancer (the cluster topology): a pooled connection idle at the
 * moment its replica closes it would fail the next request ("other side closed").
 */
export async function useOwnConnections(on: boolean): Promise<void> {
  await ownConnections?.close();
  ownConnections = on ? new Agent({ pipelining: 0 }) : undefined;
}

/** `fetch`, on a connection of its own after `useOwnConnections(true)`; a failure names the request. */
export async function testFetch(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, ownConnections ? ({ ...init, dispatcher: ownConnections } as RequestInit) : init);
  } catch (error) {
    throw namedFailure(init.method ?? 'GET', url, error);
  }
}

/** fetch's own error names no request (its stack ends in undici): say which one failed. */
function namedFailure(method: string, url: string, error: unknown): Error {
  const cause = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.name}: ${error.cause.message})` : ''}` : String(error);
  return new Error(`${method} ${url} failed: ${cause}`, { cause: error });
}

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
  let res: Response;
  let text: string;
  try {
    res = await testFetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    text = await res.text();
  } catch (error) {
    // The body's read may fail too (a connection cut mid-answer): named the same way.
    throw error instanceof Error && error.message.startsWith(`${method} `) ? error : namedFailure(method, `${baseUrl}${path}`, error);
  }
  return { status: res.status, headers: res.headers, text, body: (text ? JSON.parse(text) : undefined) as Json };
}

/** `request` answering only `{ status, body }`, so tests can compare whole answers. */
export async function call(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const { status, body: parsed } = await request(baseUrl, method, path, headers, body);
  return { status, body: parsed };
}
