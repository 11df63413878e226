/**
 * The console's one way to call the API: same origin, the session cookie, JSON in and out. A
 * failed answer throws an ApiError carrying the API's own `message` (a string, or the list of a
 * 422 joined), so pages show what the API said.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Called on any 401 from a session route: the session ended (main.tsx sends the user to sign in). */
let onUnauthorized: () => void = () => undefined;
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

export function messageOf(body: unknown, fallback: string): string {
  const message = (body as { message?: unknown } | null)?.message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  if (typeof message === 'string' && message) return message;
  return fallback;
}

export async function api<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json', ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': 'application/json', ...init.headers };
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'The service cannot be reached', null);
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!res.ok) {
    const code = (parsed as { code?: unknown } | null)?.code;
    const error = new ApiError(res.status, messageOf(parsed, `${res.status} ${res.statusText}`), typeof code === 'string' ? code : null);
    if (res.status === 401 && !path.startsWith('/api/auth/')) onUnauthorized();
    throw error;
  }
  return parsed as T;
}

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The signed-in user, as GET /api/users/session answers it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
}
