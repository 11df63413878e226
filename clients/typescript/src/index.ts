/**
 * The TypeScript client: openapi-fetch typed by the generated `paths` (./schema.ts, from
 * clients/openapi.json by `npm run clients`). Every call is `client.GET|POST|...(path, { params,
 * body })` and answers `{ data, error, response }`, typed per route and status. Written by hand:
 * only a constructor that sets the credentials, and the session cookie of a sign-in answer.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

export type ScrapeApiClient = Client<paths>;

export interface Credentials {
  /** An API key (POST /api/users/create-api-keys): the scraping, flow and template routes. */
  apiKey?: string;
  /** `name=value` of the session cookie (`sessionCookie(response)`): the account routes. */
  sessionCookie?: string;
}

/** A typed client of the whole API at `baseUrl`, sending `credentials` with every request. */
export function createScrapeApiClient(baseUrl: string, credentials: Credentials = {}, options: Omit<ClientOptions, 'baseUrl'> = {}): ScrapeApiClient {
  const headers: Record<string, string> = {};
  if (credentials.apiKey) headers['x-api-key'] = credentials.apiKey;
  if (credentials.sessionCookie) headers.cookie = credentials.sessionCookie;
  return createClient<paths>({ ...options, baseUrl, headers: { ...headers, ...(options.headers as Record<string, string> | undefined) } });
}

/**
 * The session cookie (`name=value`) that a sign-up or sign-in answer sets. A browser keeps it by
 * itself; a script passes it on as `createScrapeApiClient(baseUrl, { sessionCookie })`. Behind
 * https its name has the `__Secure-` prefix.
 */
export function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => /^(__Secure-)?better-auth\.session_token=/.test(c));
  if (!cookie) throw new Error(`no session cookie in the ${response.status} answer`);
  return cookie.split(';')[0]!;
}
