import { Router } from 'express';
import { z } from 'zod';
import { getBalance } from '../../accounts/credit';
import { type Route, mountRoutes, reply, route } from '../route-table';
import type { AppDeps } from '../deps';

const whoamiResponse = z.object({ userId: z.string(), apiKeyId: z.string().nullable(), remaining: z.int() });

/**
 * GET /webhook/whoami (API key only): a credential check for clients. Costs nothing and answers
 * which account and key the request authenticated as, and the account's balance.
 */
export function whoamiRouteTable(deps: AppDeps): Route[] {
  return [
    route({
      method: 'get',
      path: '/webhook/whoami',
      credential: 'apiKey',
      tag: 'scraping',
      summary: 'Check an API key: the account, the key and the balance (free)',
      responses: { 200: whoamiResponse },
      errors: [],
      handler: async ({ auth }) => reply(200, { userId: auth.userId, apiKeyId: auth.apiKeyId, remaining: await getBalance(deps.db, auth.userId) }),
    }),
  ];
}

export function whoamiRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, whoamiRouteTable(deps));
}
