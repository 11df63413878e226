/**
 * Firecrawl's official Python SDK (firecrawl-py, pinned in scripts/python-requirements.txt),
 * driven from jest: each call runs test/firecrawl/py_sdk.py in the project's venv with one JSON
 * spec and parses the outcome it prints last. The SDK tests (api/firecrawl/*.sdk.test.ts and a
 * few route tests) share this one runner.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensurePythonTools } = require('../../scripts/python-tools.cjs') as { ensurePythonTools: (log: (line: string) => void) => string };

const script = path.join(__dirname, '..', 'firecrawl', 'py_sdk.py');

/** What py_sdk.py prints: the call's value, or the SDK's error with its HTTP status. */
export interface PyOutcome {
  ok: boolean;
  type: string;
  value?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  status?: number | null;
  message?: string;
}

/** One SDK call: `client` picks firecrawl-py's v2 `Firecrawl` or its v1 `FirecrawlApp`. */
export interface PyCall {
  apiUrl: string;
  apiKey: string;
  client?: 'v1' | 'v2';
  method: string;
  args: unknown[];
  kwargs?: Record<string, unknown>;
}

/**
 * The venv's python (made when missing: call it in `beforeAll`, with its long timeout), and a
 * function that runs one call. `maxBuffer` bounds what one call may print (a crawl's pages).
 */
export function firecrawlPython(options: { maxBuffer?: number } = {}): (call: PyCall) => Promise<PyOutcome> {
  const python = path.join(ensurePythonTools((line) => console.log(line)), 'python');
  const maxBuffer = options.maxBuffer ?? 64 * 1024 * 1024;
  return (call) => {
    const spec = { client: 'v2', kwargs: {}, ...call };
    return new Promise((resolve, reject) => {
      execFile(python, [script, JSON.stringify(spec)], { maxBuffer }, (error, stdout, stderr) => {
        if (error) return reject(new Error(`py_sdk.py failed: ${error.message}\n${stderr}`));
        try {
          resolve(JSON.parse(stdout.trim().split('\n').pop()!) as PyOutcome);
        } catch {
          reject(new Error(`py_sdk.py printed no JSON: ${stdout}\n${stderr}`));
        }
      });
    });
  };
}
