/**
 * `/user-templates/*` (API key or session): CRUD of saved scrape requests with `{{param}}`
 * placeholders, and `POST /user-templates/:id/run` with `{ params }`, which renders the request
 * and runs it as a normal scrape run (scrapeWorkflow under the workflow id
 * `template-<templateId>-<runId>`, search attribute TemplateId), answering like
 * POST /webhook/unblocker: 200 result, 402, failure body, or 504 with the run id past
 * SYNC_TIMEOUT_MS. Another account's template → 403; unknown → 404.
 */
import { Router } from 'express';
import { z } from 'zod';
import { toJsonColumn } from '../../platform/db';
import { workflowIds } from '../../workflows/definitions';
import { ownedBy } from '../ownership';
import { type Reply, type Route, mountRoutes, parsedBy, reply, route, unprocessable } from '../route-table';
import { startScrapeRun } from '../scrape-run';
import { errorBodySchema, queuedRunSchema, runResultSchema, templateSchema } from '../schemas/responses';
import { assertValidTemplate, createTemplateSchema, renderRun, runTemplateSchema, type TemplateParam, updateTemplateSchema } from '../schemas/user-templates';
import type { AppDeps } from '../deps';
import { redactRequestSecrets } from '../../scrape/request-redaction';
import { configuredKeyring } from '../../sessions/keys';
import { sealRequestSecrets, unsealRequestSecrets } from '../../sessions/request-secrets';

type TemplateRow = NonNullable<Awaited<ReturnType<AppDeps['db']['userTemplate']['findUnique']>>>;

/** Secrets masked on every read (docs/scraping.md "Cookies and headers", saved definitions). */
function templateBody(t: TemplateRow) {
  return { id: t.id, name: t.name, description: t.description, request: redactRequestSecrets(t.request), params: t.params, createdAt: t.createdAt, updatedAt: t.updatedAt };
}

const TEMPLATE_EXAMPLE = { name: 'title', request: { url: '{{page}}', selectors: ['h1'] }, params: [{ name: 'page', type: 'url', required: true }] };
/** A template run answers like POST /webhook/unblocker. */
const runResponses = { 200: runResultSchema, 202: queuedRunSchema, 403: errorBodySchema, 502: errorBodySchema, 503: errorBodySchema };

export function userTemplateRouteTable(deps: AppDeps): Route[] {
  const keyring = configuredKeyring(deps.config);
  /** The request as the row keeps it: secrets sealed; one sent back masked keeps the stored one. */
  const sealed = (userId: string, request: Record<string, unknown>, stored?: unknown) => sealRequestSecrets(keyring, { userId, kind: 'template' }, request, stored);
  /** The caller's template, or 404 (unknown) / 403 (another account's). */
  const ownTemplate = async (id: string, userId: string): Promise<TemplateRow> => ownedBy(await deps.db.userTemplate.findUnique({ where: { id } }), userId, 'template');
  return [
    route({
      method: 'post',
      path: '/user-templates',
      credential: 'either',
      tag: 'templates',
      summary: 'Save a scrape request with {{param}} placeholders',
      body: unprocessable(createTemplateSchema, TEMPLATE_EXAMPLE),
      responses: { 201: templateSchema },
      errors: ['VALIDATION_FAILED'],
      handler: async ({ auth, body }) => {
        assertValidTemplate(body.request, body.params);
        const created = await deps.db.userTemplate.create({
          data: { userId: auth.userId, name: body.name, description: body.description ?? null, request: toJsonColumn(sealed(auth.userId, body.request)), params: toJsonColumn(body.params) },
        });
        return reply(201, templateBody(created));
      },
    }),
    route({
      method: 'get',
      path: '/user-templates',
      credential: 'either',
      tag: 'templates',
      summary: "The account's templates",
      responses: { 200: z.object({ templates: z.array(templateSchema) }) },
      errors: [],
      handler: async ({ auth }) => {
        const templates = await deps.db.userTemplate.findMany({ where: { userId: auth.userId }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
        return reply(200, { templates: templates.map(templateBody) });
      },
    }),
    route({
      method: 'get',
      path: '/user-templates/:id',
      params: ['id'],
      credential: 'either',
      tag: 'templates',
      summary: 'One template',
      responses: { 200: templateSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => reply(200, templateBody(await ownTemplate(params.id, auth.userId))),
    }),
    route({
      method: 'patch',
      path: '/user-templates/:id',
      params: ['id'],
      credential: 'either',
      tag: 'templates',
      summary: 'Change a template (the merged template must be valid as a whole)',
      body: unprocessable(updateTemplateSchema),
      responses: { 200: templateSchema },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'VALIDATION_FAILED'],
      handler: async ({ auth, params, body: patch }) => {
        const template = await ownTemplate(params.id, auth.userId);
        // Checked as the caller sees it (secrets masked).
        const request = patch.request ?? redactRequestSecrets(template.request as Record<string, unknown>);
        const params_ = patch.params ?? (template.params as unknown as TemplateParam[]);
        // The merged template must be valid as a whole (new placeholders need declared params, and so on).
        assertValidTemplate(request, params_);
        const updated = await deps.db.userTemplate.update({
          where: { id: template.id },
          data: {
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.description !== undefined ? { description: patch.description } : {}),
            ...(patch.request !== undefined ? { request: toJsonColumn(sealed(auth.userId, patch.request, template.request)) } : {}),
            ...(patch.params !== undefined ? { params: toJsonColumn(patch.params) } : {}),
          },
        });
        return reply(200, templateBody(updated));
      },
    }),
    route({
      method: 'delete',
      path: '/user-templates/:id',
      params: ['id'],
      credential: 'either',
      tag: 'templates',
      summary: 'Delete a template',
      responses: { 204: null },
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      handler: async ({ auth, params }) => {
        const template = await ownTemplate(params.id, auth.userId);
        await deps.db.userTemplate.delete({ where: { id: template.id } });
        return reply(204);
      },
    }),
    route({
      method: 'post',
      path: '/user-templates/:id/run',
      params: ['id'],
      credential: 'either',
      tag: 'templates',
      summary: 'Run a template with { params }: answers like POST /webhook/unblocker',
      // Parsed in the handler (renderRun), after the ownership check: 403/404 come first.
      body: parsedBy(runTemplateSchema, (body) => body, { params: { page: 'https://example.com/' } }),
      responses: runResponses,
      errors: ['NOT_FOUND', 'FORBIDDEN', 'VALIDATION_FAILED', 'INSUFFICIENT_CREDIT', 'BLACKLISTED', 'PRIVATE_TARGET', 'SCRAPE_FAILED', 'TARGET_ERROR', 'TARGET_BLOCKED', 'RESPONSE_TOO_LARGE', 'BROWSER_UNAVAILABLE', 'TIMEOUT', 'ACTION_FAILED'],
      handler: async ({ auth, params, body }) => {
        const template = await ownTemplate(params.id, auth.userId);
        // The one place its secrets are opened: the run's workflow input (encrypted by the payload codec).
        const stored = unsealRequestSecrets(keyring, { userId: auth.userId, kind: 'template' }, template.request as Record<string, unknown>);
        const request = renderRun({ request: stored, params: template.params as unknown as TemplateParam[] }, body);
        const answer = await startScrapeRun(deps, auth, request, {
          workflowId: (runId) => workflowIds.templateRun(template.id, runId),
          templateId: template.id,
          memo: { templateId: template.id },
        });
        return answer as Reply<typeof runResponses>;
      },
    }),
  ];
}

export function userTemplateRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, userTemplateRouteTable(deps));
}
