/*
 * The Python tools of the generated clients and the schema fuzz (docs/api.md): a venv in
 * <DATA_DIR>/py with scripts/python-requirements.txt installed (openapi-python-client,
 * schemathesis and their pinned closure), made by `python3 -m venv` and pip from PyPI, again
 * only when the requirements file changes (a stamp holds its hash). Plain Node, no dependencies:
 * scripts/setup.cjs runs it before the tests, scripts/generate-clients.ts before generating.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const requirements = path.join(root, 'scripts', 'python-requirements.txt');

function venvDir() {
  return path.join(path.resolve(root, process.env.DATA_DIR || '.data'), 'py');
}

/** The venv's bin folder (openapi-python-client, schemathesis' `st`, python). */
function pythonToolsBin() {
  return path.join(venvDir(), 'bin');
}

/**
 * Makes the venv when missing or stale; answers its bin folder, or throws saying what is missing.
 * `log` gets one line per step.
 */
function ensurePythonTools(log = () => {}) {
  const dir = venvDir();
  const stamp = path.join(dir, '.requirements-hash');
  const hash = createHash('sha256').update(fs.readFileSync(requirements)).digest('hex');
  let current = '';
  try {
    current = fs.readFileSync(stamp, 'utf8').trim();
  } catch {
    // no venv yet
  }
  if (current === hash && fs.existsSync(path.join(dir, 'bin', 'python'))) return path.join(dir, 'bin');
  const python = process.env.PYTHON || 'python3';
  log(`making the Python tools venv ${path.relative(root, dir)} (${python} -m venv, pip install -r scripts/python-requirements.txt)...`);
  try {
    execFileSync(python, ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error(`no ${python} on this machine: the generated clients' and the schema fuzz's tools need Python 3.11+ (set PYTHON to another interpreter)`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync(python, ['-m', 'venv', dir], { stdio: 'inherit' });
  execFileSync(path.join(dir, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '--no-input', '-r', requirements], { stdio: 'inherit' });
  fs.writeFileSync(stamp, hash);
  return path.join(dir, 'bin');
}

module.exports = { ensurePythonTools, pythonToolsBin };
