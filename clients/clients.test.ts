/**
 * The generated clients' README examples, run as they are against the real service (API and
 * worker processes, Temporal, PostgreSQL) and a local fixture page: each README's code block must
 * be its example file, which is then executed (tsx for TypeScript, the tools venv's Python for
 * Python). Also: the running service serves the very document the clients were generated from.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type FixtureServer, startFixtureServer } from '../test/fixtures/server';
import { type Stack, startStack } from '../test/helpers/stack';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensurePythonTools } = require('../scripts/python-tools.cjs') as { ensurePythonTools: (log: (line: string) => void) => string };

const run = promisify(execFile);
const root = path.resolve(__dirname, '..');

let stack: Stack;
let fixtures: FixtureServer;
let pythonBin: string;

beforeAll(async () => {
  pythonBin = ensurePythonTools((line) => console.log(line));
  [stack, fixtures] = await Promise.all([startStack(), startFixtureServer()]);
}, 600_000);

afterAll(async () => {
  await Promise.all([stack?.stop(), fixtures?.close()]);
});

/** The one fenced block of `lang` in a README. */
function codeBlock(readme: string, lang: string): string {
  const blocks = [...readFileSync(readme, 'utf8').matchAll(new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]!);
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

async function runExample(command: string, args: string[], env: Record<string, string>): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd: root, env: { ...process.env, SCRAPE_API_URL: stack.baseUrl, PAGE_URL: `${fixtures.url}/page/7`, ...env }, timeout: 120_000 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${String(error)}\n${stdout ?? ''}\n${stderr ?? ''}\napi:\n${stack.output.api.join('').slice(-3000)}`);
  }
}

it('the service serves the document the clients were generated from', async () => {
  const served = (await (await fetch(`${stack.baseUrl}/openapi.json`)).json()) as unknown;
  expect(served).toEqual(JSON.parse(readFileSync(path.join(root, 'clients', 'openapi.json'), 'utf8')));
});

it("the TypeScript README's example signs up, creates a key, scrapes the page and runs a flow", async () => {
  const example = path.join(root, 'clients', 'typescript', 'example.ts');
  expect(codeBlock(path.join(root, 'clients', 'typescript', 'README.md'), 'ts')).toBe(readFileSync(example, 'utf8'));
  const out = await runExample(process.execPath, ['--import', 'tsx', example], {});
  expect(out).toBe('h1: Page 7\nflow run: succeeded credits spent: 1\n');
});

it("the Python README's example does the same with the generated Python client", async () => {
  const example = path.join(root, 'clients', 'python', 'example.py');
  expect(codeBlock(path.join(root, 'clients', 'python', 'README.md'), 'python')).toBe(readFileSync(example, 'utf8'));
  const out = await runExample(path.join(pythonBin, 'python'), [example], { PYTHONPATH: path.join(root, 'clients', 'python') });
  expect(out).toBe('h1: Page 7\nflow run: succeeded credits spent: 1\n');
});
