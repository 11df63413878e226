/**
 * The house's dependency rules (docs/architecture.md), checked by `npm run lint`.
 * Layers, from the bottom: platform → domains → orchestration → edges. An import may only point
 * down (or sideways within a layer, where the rule allows it), never up; no cycle between files
 * (type-only imports included) or folders.
 */
const PLATFORM = '^platform/';
const DOMAINS = '^(scrape|crawl|flows|accounts|billing|webhooks|notifications|sessions|monitors|search)/';
const ORCHESTRATION = '^(workflows|activities)/';
const EDGES = '^(api|workers|scripts|dashboard)/';
const NOT_PRODUCT = '(^|/)(test|bench|clients|deploy|node_modules|generated|dist)/|\\.test\\.tsx?$';

module.exports = {
  forbidden: [
    {
      name: 'every-folder-in-a-layer',
      severity: 'error',
      comment: 'Every product folder belongs to a layer (docs/architecture.md). Way out: put the file in the folder of its layer, or add its new folder to a layer in .dependency-cruiser.cjs (and to docs/architecture.md).',
      from: { path: '^[^/]+/', pathNot: `${PLATFORM}|${DOMAINS}|${ORCHESTRATION}|${EDGES}|${NOT_PRODUCT}` },
      to: {},
    },
    {
      name: 'platform-imports-only-platform',
      severity: 'error',
      comment: 'platform/ is what every module needs (config, logger, sql, errors, metrics, the Temporal client): it imports nothing of ours but itself and the generated Prisma client. Way out: move the domain knowledge into the domain and pass plain values (or a function) into the platform module.',
      from: { path: PLATFORM, pathNot: NOT_PRODUCT },
      to: { path: `${DOMAINS}|${ORCHESTRATION}|${EDGES}` },
    },
    {
      name: 'domains-do-not-import-orchestration-or-edges',
      severity: 'error',
      comment: 'A domain (scrape, crawl, flows, accounts, billing, webhooks, notifications, monitors) owns its rules, store and types; it never reaches up to workflows/, activities/ or an edge. Way out: move the shared type down into the domain, or let the caller (an activity or a route) do the orchestration.',
      from: { path: DOMAINS, pathNot: NOT_PRODUCT },
      to: { path: `${ORCHESTRATION}|${EDGES}` },
    },
    {
      name: 'orchestration-does-not-import-edges',
      severity: 'error',
      comment: 'workflows/ and activities/ never import api/, workers/, scripts/ or dashboard/. Way out: move the shared piece down into a domain or platform/.',
      from: { path: ORCHESTRATION, pathNot: NOT_PRODUCT },
      to: { path: EDGES },
    },
    {
      name: 'workflows-do-not-import-activities',
      severity: 'error',
      comment: 'Workflows declare the activities they call (workflows/activities.ts); activities/ implements those contracts (activities → workflows, never back). Way out: declare the signature in workflows/activities.ts.',
      from: { path: '^workflows/', pathNot: NOT_PRODUCT },
      to: { path: '^activities/' },
    },
    {
      name: 'workers-do-not-import-api',
      severity: 'error',
      comment: 'The API process hosts a worker (api/server.ts → workers/), never the other way. Way out: move the shared piece into workers/ or below.',
      from: { path: '^workers/', pathNot: NOT_PRODUCT },
      to: { path: '^(api|scripts)/' },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      comment: 'Files may not import each other in a loop, type-only imports included. Way out: a type two files need belongs in a third that both import.',
      from: { pathNot: NOT_PRODUCT },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      scope: 'folder',
      comment: 'Folders may not import each other in a loop. Way out: move the piece both need into the lower folder (or a third one below both).',
      from: { pathNot: NOT_PRODUCT },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Only the product is cruised: tests, fixtures and benches may import across layers.
    exclude: { path: NOT_PRODUCT },
    // Type-only imports are dependencies too: a cycle closed by an `import type` is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
