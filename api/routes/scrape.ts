import { type Request, type Response, Router } from 'express';
import { getBalance } from '../../lib/credit';
import type { AppDeps } from '../app';
import { authenticate } from '../middleware/auth';
import { ownedBy } from '../ownership';
import { failedRunBody, runBody, startScrapeRun } from '../scrape-run';
import { parseScrapeRequest } from '../schemas/scrape';
import { rejectMalformedIds } from '../params';

export { runBody } from '../scrape-run';

export function scrapeRoutes(deps: AppDeps): Router {
  const router = Router();
  rejectMalformedIds(router, 'id');
  const requireApiKey = authenticate(deps, { apiKey: true, session: false });

  router.post('/webhook/unblocker', requireApiKey, async (req: Request, res: Response) => {
    const auth = req.auth!;
    const answer = await startScrapeRun(deps, auth, parseScrapeRequest(req.body));
    res.status(answer.status).json(answer.body);
  });

  router.get('/webhook/runs/:id', requireApiKey, async (req: Request, res: Response) => {
    const auth = req.auth!;
    const run = ownedBy(await deps.db.scrapeRun.findUnique({ where: { id: String(req.params.id) } }), auth.userId, 'run');
    const base = { id: run.id, status: run.status, createdAt: run.createdAt, finishedAt: run.finishedAt, links: { self: `/webhook/runs/${run.id}` } };
    if (run.status === 'succeeded') {
      res.json({ ...base, result: runBody(run, await getBalance(deps.sql, auth.userId)) });
    } else if (run.status === 'failed') {
      res.json({ ...base, error: failedRunBody(run).body });
    } else if (run.status === 'cancelled') {
      // A flow run's scrape stopped by a cancel: what it spent stays spent.
      res.json({ ...base, attempts: run.attempts, error: run.error });
    } else {
      res.json({ ...base, attempts: run.attempts });
    }
  });

  return router;
}
