/**
 * The web console at `/dashboard` (docs/dashboard.md): the build of dashboard/ in dist/dashboard/
 * (scripts/build-dashboard.cjs), served from this origin. `/dashboard/assets/*` are the bundle's
 * files (content-hashed names: cached for a year); every other `/dashboard/*` path answers the
 * page itself, whose script routes on the client. The page calls the API with the session cookie.
 * Not built → 404 saying how to build it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { errorBody } from '../../platform/errors';
import { type Route, customRoute } from '../route-table';

/** scripts/build-dashboard.cjs's output folder. */
export const DASHBOARD_DIR = path.resolve(__dirname, '..', '..', 'dist', 'dashboard');

const NOT_BUILT = 'The dashboard is not built: run `node scripts/build-dashboard.cjs` (npm start and npm test do)';

export function dashboardRouteTable(dir: string = DASHBOARD_DIR): Route[] {
  const page = (_req: Request, res: Response) => {
    const index = path.join(dir, 'index.html');
    if (!existsSync(index)) {
      res.status(404).json(errorBody('NOT_FOUND', NOT_BUILT));
      return;
    }
    // The page names the current bundle: always asked again.
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  };
  return [
    customRoute({
      method: 'get',
      path: '/dashboard',
      credential: 'none',
      tag: 'operations',
      summary: 'The web console (its pages call the API with the session cookie)',
      description: 'Every `/dashboard/*` path answers this page (client-side routing); `/dashboard/assets/*` are its script and style sheet.',
      responses: { 200: z.string() },
      responseContentType: 'text/html',
      errors: ['NOT_FOUND'],
      serves: ['/dashboard/*splat'],
      mount: (router) => {
        router.use('/dashboard/assets', express.static(path.join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d' }));
        // A missing asset is a 404, not the page.
        router.use('/dashboard/assets', (req: Request, res: Response) => {
          res.status(404).json(errorBody('NOT_FOUND', `Cannot ${req.method} ${req.originalUrl.split('?')[0]}`));
        });
        router.get('/dashboard', page);
        router.get('/dashboard/*splat', page);
      },
    }),
  ];
}
