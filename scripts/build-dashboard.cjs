#!/usr/bin/env node
/*
 * Builds the web console (dashboard/, Preact + esbuild: docs/dashboard.md) into dist/dashboard/,
 * a git-ignored folder the API serves at /dashboard. Run by scripts/setup.cjs (so by `npm start`
 * and `npm test`) and by the Dockerfile; skipped when nothing it reads has changed (a stamp of the
 * sources' hash). Prints the gzip size of the first load and fails over the budget (300 KB of
 * JavaScript, compressed). `--force` rebuilds anyway.
 *
 * The folder is replaced whole (built beside it, then renamed), so a running API never serves a
 * half-written build.
 */
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const root = path.resolve(__dirname, '..');
const SOURCE_DIR = path.join(root, 'dashboard');
const DASHBOARD_DIR = path.join(root, 'dist', 'dashboard');
/** The first load's JavaScript, gzip-compressed, must stay under this. */
const JS_BUDGET_GZIP_BYTES = 300 * 1024;
/** Where the assets are served (api/routes/dashboard.ts). */
const ASSET_BASE = '/dashboard/assets';

function sourceFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return entry.name.endsWith('.test.ts') ? [] : [full];
    })
    .sort();
}

function sourceHash() {
  const hash = createHash('sha256');
  for (const file of [...sourceFiles(SOURCE_DIR), path.join(root, 'package-lock.json'), __filename]) {
    hash.update(path.relative(root, file));
    hash.update(fs.readFileSync(file));
  }
  return hash.digest('hex');
}

function readManifest() {
  try {
    return JSON.parse(fs.readFileSync(path.join(DASHBOARD_DIR, 'manifest.json'), 'utf8'));
  } catch {
    return null;
  }
}

const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

function indexHtml(js, css) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Scrape API console</title>
<link rel="stylesheet" href="${ASSET_BASE}/${css}">
<script type="module" src="${ASSET_BASE}/${js}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The console needs JavaScript.</noscript>
</body>
</html>
`;
}

/**
 * Builds unless the stamp says the sources are unchanged. Answers the manifest:
 * `{ hash, js, css, gzipJsBytes, gzipCssBytes }` (file names under assets/).
 */
async function buildDashboard(options = {}) {
  const log = options.log ?? ((line) => console.log(`[dashboard] ${line}`));
  const hash = sourceHash();
  const existing = readManifest();
  if (!options.force && existing && existing.hash === hash && fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'))) return existing;

  const esbuild = require('esbuild');
  const staging = `${DASHBOARD_DIR}.build-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  const result = await esbuild.build({
    entryPoints: [path.join(SOURCE_DIR, 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: path.join(staging, 'assets'),
    entryNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => path.resolve(root, file));
  const js = outputs.find((file) => file.endsWith('.js'));
  const css = outputs.find((file) => file.endsWith('.css'));
  if (!js || !css) throw new Error(`the dashboard build produced no ${js ? 'CSS' : 'JavaScript'}`);
  const manifest = { hash, js: path.basename(js), css: path.basename(css), gzipJsBytes: gzipSize(js), gzipCssBytes: gzipSize(css) };
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  log(`built: ${manifest.js} ${kb(manifest.gzipJsBytes)} gzip (budget ${kb(JS_BUDGET_GZIP_BYTES)}), ${manifest.css} ${kb(manifest.gzipCssBytes)} gzip`);
  if (manifest.gzipJsBytes > JS_BUDGET_GZIP_BYTES) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Error(`the dashboard's JavaScript is ${kb(manifest.gzipJsBytes)} gzip, over the ${kb(JS_BUDGET_GZIP_BYTES)} budget (docs/dashboard.md)`);
  }
  fs.writeFileSync(path.join(staging, 'index.html'), indexHtml(manifest.js, manifest.css));
  fs.writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const previous = `${DASHBOARD_DIR}.old-${process.pid}`;
  if (fs.existsSync(DASHBOARD_DIR)) fs.renameSync(DASHBOARD_DIR, previous);
  fs.renameSync(staging, DASHBOARD_DIR);
  fs.rmSync(previous, { recursive: true, force: true });
  return manifest;
}

module.exports = { buildDashboard, DASHBOARD_DIR, JS_BUDGET_GZIP_BYTES };

if (require.main === module) {
  buildDashboard({ force: process.argv.includes('--force') }).catch((error) => {
    console.error(`[dashboard] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
