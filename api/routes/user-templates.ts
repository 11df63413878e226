/**
 * `/user-templates/*` (API key or session): CRUD of saved scrape requests with `{{param}}`
 * placeholders, and `POST /user-templates/:id/run` with `{ params }`, which renders the request
 * and runs it as a normal scrape run (scrapeWorkflow under the workflow id
 * `template-<templateId>-<runId>`, search attribute TemplateId), answering like
 * POST /webhook/unblocker: 200 result, 402, failure body, or 504 with the run id past
 * SYNC_TIMEOUT_MS. Another account's template → 403; unknown → 404.
 */
import { type Request, type Response, Router } from 'express';
import { toJsonColumn } from '../../lib/db';
import { workflowIds } from '../../workflows/definitions';
import type { AppDeps } from '../app';
import { authenticate } from '../middleware/auth';
import { ownedBy } from '../ownership';
import { startScrapeRun } from '../scrape-run';
import { assertValidTemplate, createTemplateSchema, renderRun, type TemplateParam, updateTemplateSchema } from '../schemas/user-templates';
import { parseOrUnprocessable } from '../validate';
import { rejectMalformedIds } from '../params';

type TemplateRow = NonNullable<Awaited<ReturnType<AppDeps['db']['userTemplate']['findUnique']>>>;

function templateBody(t: TemplateRow) {
  return { id: t.id, name: t.name, description: t.description, request: t.request, params: t.params, createdAt: t.createdAt, updatedAt: t.updatedAt };
}


export function userTemplateRoutes(deps: AppDeps): Router {
  const router = Router();
  rejectMalformedIds(router, 'id');
  const requireCaller = authenticate(deps, { apiKey: true, session: true });

  /** The caller's template, or 404 (unknown) / 403 (another account's). */
  async function ownTemplate(req: Request): Promise<TemplateRow> {
    return ownedBy(await deps.db.userTemplate.findUnique({ where: { id: String(req.params.id) } }), req.auth!.userId, 'template');
  }

  router.post('/user-templates', requireCaller, async (req: Request, res: Response) => {
    const body = parseOrUnprocessable(createTemplateSchema, req.body);
    assertValidTemplate(body.request, body.params);
    const created = await deps.db.userTemplate.create({
      data: { userId: req.auth!.userId, name: body.name, description: body.description ?? null, request: toJsonColumn(body.request), params: toJsonColumn(body.params) },
    });
    res.status(201).json(templateBody(created));
  });

  router.get('/user-templates', requireCaller, async (req: Request, res: Response) => {
    const templates = await deps.db.userTemplate.findMany({ where: { userId: req.auth!.userId }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
    res.json({ templates: templates.map(templateBody) });
  });

  router.get('/user-templates/:id', requireCaller, async (req: Request, res: Response) => {
    res.json(templateBody(await ownTemplate(req)));
  });

  router.patch('/user-templates/:id', requireCaller, async (req: Request, res: Response) => {
    const patch = parseOrUnprocessable(updateTemplateSchema, req.body);
    const template = await ownTemplate(req);
    const request = patch.request ?? (template.request as Record<string, unknown>);
    const params = patch.params ?? (template.params as unknown as TemplateParam[]);
    // The merged template must be valid as a whole (new placeholders need declared params, and so on).
    assertValidTemplate(request, params);
    const updated = await deps.db.userTemplate.update({
      where: { id: template.id },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.request !== undefined ? { request: toJsonColumn(patch.request) } : {}),
        ...(patch.params !== undefined ? { params: toJsonColumn(patch.params) } : {}),
      },
    });
    res.json(templateBody(updated));
  });

  router.delete('/user-templates/:id', requireCaller, async (req: Request, res: Response) => {
    const template = await ownTemplate(req);
    await deps.db.userTemplate.delete({ where: { id: template.id } });
    res.status(204).end();
  });

  router.post('/user-templates/:id/run', requireCaller, async (req: Request, res: Response) => {
    const template = await ownTemplate(req);
    const request = renderRun({ request: template.request as Record<string, unknown>, params: template.params as unknown as TemplateParam[] }, req.body);
    const answer = await startScrapeRun(deps, req.auth!, request, {
      workflowId: (runId) => workflowIds.templateRun(template.id, runId),
      templateId: template.id,
      memo: { templateId: template.id },
    });
    res.status(answer.status).json(answer.body);
  });

  return router;
}
