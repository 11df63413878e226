import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { workflowIds } from '../../workflows/definitions';
import { echoWorkflow } from '../../workflows/echo.workflow';
import { awaitWorkflow } from '../await-workflow';
import { type Route, mountRoutes, parsedBy, reply, route } from '../route-table';
import { parseBody } from '../../platform/validate';
import type { AppDeps } from '../deps';

const echoSchema = z.strictObject({
  message: z.string().max(1000).default('ping'),
  delayMs: z.number().int().min(0).max(120_000).default(0),
});

/**
 * POST /diagnostics/echo runs a one-activity workflow through a worker and answers with its
 * result, under the same synchronous limit as scraping (504 with the run id past it).
 * Off unless DIAGNOSTICS_ENABLED: it is an unauthenticated way to start workflows.
 */
export function diagnosticsRouteTable(deps: AppDeps): Route[] {
  return [
    route({
      method: 'post',
      path: '/diagnostics/echo',
      credential: 'none',
      tag: 'operations',
      summary: 'Run a one-activity workflow through a worker (only with DIAGNOSTICS_ENABLED)',
      body: parsedBy(echoSchema, (body) => parseBody(echoSchema, body ?? {}), { message: 'ping', delayMs: 0 }),
      responses: { 200: z.object({ id: z.string(), workflowId: z.string(), result: z.unknown() }) },
      errors: ['BAD_REQUEST', 'TIMEOUT'],
      handler: async ({ body: input }) => {
        const client = await deps.temporal.get();
        const id = randomUUID();
        const handle = await client.workflow.start(echoWorkflow, {
          taskQueue: deps.queues.main,
          workflowId: workflowIds.echo(id),
          args: [input],
        });
        const outcome = await awaitWorkflow(client, handle, deps.config.SYNC_TIMEOUT_MS);
        if (outcome.timedOut) throw new AppError('TIMEOUT', `The run did not finish within ${deps.config.SYNC_TIMEOUT_MS} ms`, { id, workflowId: handle.workflowId });
        return reply(200, { id, workflowId: handle.workflowId, result: outcome.result });
      },
    }),
  ];
}

export function diagnosticsRoutes(deps: AppDeps): Router {
  return mountRoutes(Router(), deps, diagnosticsRouteTable(deps));
}
