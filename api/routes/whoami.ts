import { Router } from 'express';
import { getBalance } from '../../lib/credit';
import type { AppDeps } from '../app';
import { authenticate } from '../middleware/auth';

/**
 * GET /webhook/whoami (API key only): a credential check for clients. Costs nothing and answers
 * which account and key the request authenticated as, and the account's balance.
 */
export function whoamiRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/webhook/whoami', authenticate(deps, { apiKey: true, session: false }), async (req, res) => {
    const auth = req.auth!;
    res.json({ userId: auth.userId, apiKeyId: auth.apiKeyId, remaining: await getBalance(deps.db, auth.userId) });
  });
  return router;
}
