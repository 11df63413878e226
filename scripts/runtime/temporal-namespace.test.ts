import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { SEARCH_ATTRIBUTES } from './temporal-namespace';

const root = path.resolve(__dirname, '..', '..');
/** Where the service's own code lives (tests, benchmarks and generated code excluded). */
const SOURCE_DIRS = ['platform', 'scrape', 'crawl', 'accounts', 'billing', 'webhooks', 'notifications', 'workflows', 'activities', 'api', 'workers'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const KIND_OF_SDK_TYPE: Record<string, string> = { KEYWORD: 'Keyword', KEYWORD_LIST: 'KeywordList', TEXT: 'Text', INT: 'Int' };

/** Every custom search attribute the code starts or upserts a workflow with: name → kind (undefined when the code does not say). */
function attributesWritten(): Array<{ file: string; name: string; kind?: string }> {
  const found: Array<{ file: string; name: string; kind?: string }> = [];
  for (const file of SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(root, dir)))) {
    const text = readFileSync(file, 'utf8');
    const where = path.relative(root, file);
    for (const match of text.matchAll(/defineSearchAttributeKey\(\s*'(\w+)',\s*SearchAttributeType\.(\w+)\s*\)/g)) found.push({ file: where, name: match[1]!, kind: KIND_OF_SDK_TYPE[match[2]!] ?? match[2] });
    // The untyped forms: `searchAttributes: { Name: [...] }` and `upsertSearchAttributes({ Name: [...] })`.
    for (const match of text.matchAll(/(?:searchAttributes:\s*|upsertSearchAttributes\(\s*)\{([^}]*)\}/g)) {
      for (const key of match[1]!.matchAll(/(\w+)\s*:/g)) found.push({ file: where, name: key[1]! });
    }
  }
  // Temporal's own attributes (TemporalScheduledStartTime, ...) need no registration.
  return found.filter((attribute) => !attribute.name.startsWith('Temporal'));
}

describe('SEARCH_ATTRIBUTES, the one list of custom search attributes', () => {
  it('holds every attribute the code writes, with the type it writes', () => {
    const written = attributesWritten();
    // The scan finds what it must (a broken pattern would find nothing and prove nothing).
    expect(written.map((a) => a.name)).toEqual(expect.arrayContaining(['AccountId', 'ScrapeRunIds', 'CrawlId', 'FlowId']));
    const list: Record<string, string> = SEARCH_ATTRIBUTES;
    for (const attribute of written) {
      expect({ ...attribute, registeredAs: list[attribute.name] }).toEqual({ ...attribute, registeredAs: attribute.kind ?? expect.any(String) });
    }
  });

  it('has nothing the code does not write (an attribute no run carries only takes one of the server’s few columns)', () => {
    const names = new Set(attributesWritten().map((a) => a.name));
    expect(Object.keys(SEARCH_ATTRIBUTES).filter((name) => !names.has(name))).toEqual([]);
  });
});
