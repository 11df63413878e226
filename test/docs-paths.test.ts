/**
 * Every repository path the README and docs/*.md name exists: a file or folder that moved or went
 * away leaves no reference behind (issue 24, "comments and docs that point somewhere").
 *
 * What counts as a path: a relative Markdown link target (resolved from the page's folder); a
 * span in backticks that starts with one of the repository's top-level folders; and, in prose, a
 * name under one of those folders with a file extension. `{a,b}` expands; a placeholder (`<id>`),
 * a glob (`*`) or a shell variable leaves the part before it to check. Ignored paths (not
 * committed: bench results, generated code, data) are skipped.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

/** The top-level folders a path in the docs may start with. */
const TOP_FOLDERS = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
  .map((entry) => entry.name)
  // Named in the docs as where things used to be, or as the place a command writes: checked too.
  .concat(['lib']);

/** Not committed (.gitignore): a page may name them as where a command writes. */
const NOT_COMMITTED = ['bench/results/', 'generated/', 'dist/', '.data/', 'node_modules/'];

const EXTENSIONS = 'ts|tsx|cjs|mjs|js|json|md|yml|yaml|sql|prisma|sh|py|txt|css|html|png|go|mod|conf|ini';

/** `a/{b,c}.ts` → `a/b.ts`, `a/c.ts`. */
function expandBraces(text: string): string[] {
  const match = /\{([^{}]*)\}/.exec(text);
  if (!match) return [text];
  return match[1]!.split(',').flatMap((alternative) => expandBraces(text.slice(0, match.index) + alternative.trim() + text.slice(match.index + match[0].length)));
}

/** The checkable part of a path: up to a placeholder, glob or variable (then its folder), without a trailing `:line` or punctuation. */
function checkable(candidate: string): string | undefined {
  let text = candidate.replace(/:\d+(-\d+)?$/, '').replace(/[.,;:)]+$/, '');
  const cut = text.search(/[<*$]/);
  if (cut >= 0) text = text.slice(0, text.lastIndexOf('/', cut) + 1);
  return text && !text.startsWith('/') ? text : undefined;
}

interface PathMention {
  page: string;
  line: number;
  /** As resolved: relative to the repository's root. */
  path: string;
}

/** The repository paths one page names. */
function pathsIn(page: string, text: string): PathMention[] {
  const found: PathMention[] = [];
  const top = TOP_FOLDERS.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const inBackticks = new RegExp(`^(?:${top})/\\S*$`);
  const inProse = new RegExp(`(?<![\\w@./-])((?:${top})/[\\w./{},-]*\\.(?:${EXTENSIONS}))(?![\\w-])`, 'g');
  const pageDir = path.dirname(page);
  text.split('\n').forEach((lineText, index) => {
    const line = index + 1;
    const add = (relative: string, from: string) => {
      for (const expanded of expandBraces(relative)) {
        const part = checkable(expanded);
        if (part) found.push({ page, line, path: path.normalize(path.join(from, part)) });
      }
    };
    for (const link of lineText.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = link[1]!.split('#')[0]!;
      if (target && !/^[a-z]+:/i.test(target)) add(decodeURI(target), pageDir);
    }
    for (const span of lineText.matchAll(/`([^`]+)`/g)) {
      if (inBackticks.test(span[1]!)) add(span[1]!, '.');
    }
    const prose = lineText.replace(/`[^`]*`/g, ' ').replace(/\]\([^)]*\)/g, ']');
    for (const mention of prose.matchAll(inProse)) add(mention[1]!, '.');
  });
  return found;
}

const pages = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

describe('paths named in README.md and docs/*.md', () => {
  it('finds the paths of a page, and none in what is not a path', () => {
    const mentions = pathsIn('docs/example.md', [
      'See [flows](flows.md#credit), `scrape/{request,types}.ts` and api/routes/flows.ts.',
      'Ids like `flow-<id>`, a crawl/batch job, `npm run bench`, [site](https://example.com), `@prisma/client`.',
      'Globs and placeholders: `workflows/flow-nodes/<type>.ts`, `prisma/migrations/*`.',
    ].join('\n'));
    expect(mentions.map((m) => `${m.line} ${m.path}`)).toEqual(['1 docs/flows.md', '1 scrape/request.ts', '1 scrape/types.ts', '1 api/routes/flows.ts', '3 workflows/flow-nodes/', '3 prisma/migrations/']);
  });

  it('exist in the repository', () => {
    const mentions = pages.flatMap((page) => pathsIn(page, readFileSync(path.join(root, page), 'utf8')));
    // The scan finds what it must (a broken pattern would find nothing and prove nothing).
    expect(mentions.length).toBeGreaterThan(200);
    const missing = mentions
      .filter((m) => !NOT_COMMITTED.some((prefix) => m.path.startsWith(prefix)))
      .filter((m) => !existsSync(path.join(root, m.path)))
      .map((m) => `${m.page}:${m.line}: ${m.path}`);
    expect(missing).toEqual([]);
  });
});
