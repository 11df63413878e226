/**
 * `GET /openapi.json` (the document generated from the route table, api/openapi.ts) and
 * `GET /docs`, a Swagger UI page whose assets come from the pinned `swagger-ui-dist` package,
 * served from our own origin under `/docs/assets/` (no CDN: the service may run offline).
 */
import { dirname } from 'node:path';
import express, { Router } from 'express';
import { z } from 'zod';
import { type Route, customRoute, mountRoutes, reply, route } from '../route-table';
import type { AppDeps } from '../deps';

export const DOCS_ASSETS = '/docs/assets';

/** swagger-ui-dist's folder (its package ships no types; the files are all we use). */
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The page: Swagger UI's standalone layout pointed at our document. */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Scrape API</title>
<link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui.css">
<link rel="icon" type="image/png" href="${DOCS_ASSETS}/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_ASSETS}/swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSETS}/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT_JS = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  deepLinking: true,
  withCredentials: true,
});
`;

/** `document` is built once the whole table is known (api/app.ts). */
export function docsRouteTable(document: () => unknown): Route[] {
  return [
    route({
      method: 'get',
      path: '/openapi.json',
      credential: 'none',
      tag: 'operations',
      summary: 'This OpenAPI 3.1 document',
      responses: { 200: z.record(z.string(), z.unknown()) },
      errors: [],
      handler: () => reply(200, document()),
    }),
    customRoute({
      method: 'get',
      path: '/docs',
      credential: 'none',
      tag: 'operations',
      summary: 'The API reference page (Swagger UI, served from this origin)',
      responses: { 200: z.string() },
      responseContentType: 'text/html',
      errors: [],
      mount: (router) => {
        router.get('/docs', (_req, res) => {
          res.type('html').send(DOCS_HTML);
        });
        router.use(DOCS_ASSETS, express.static(SWAGGER_UI_DIR, { index: false, fallthrough: true, maxAge: '1h' }));
      },
    }),
    customRoute({
      method: 'get',
      path: '/docs/init.js',
      credential: 'none',
      tag: 'operations',
      summary: 'The script that starts the reference page',
      responses: { 200: z.string() },
      responseContentType: 'text/javascript',
      errors: [],
      mount: (router) =>
        router.get('/docs/init.js', (_req, res) => {
          res.type('js').send(INIT_JS);
        }),
    }),
  ];
}

export function docsRoutes(deps: AppDeps, document: () => unknown): Router {
  return mountRoutes(Router(), deps, docsRouteTable(document));
}
