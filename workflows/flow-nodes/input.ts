/**
 * `input`: a person in the loop. The run waits at this node until someone answers its `prompt`
 * (POST /flows/:id/runs/:runId/input, the `flowInput` Update of the run's workflow) or its
 * `timeout` (seconds) passes; the answer is its output `{ value }`, so later nodes read
 * `{{ nodes.<id>.value }}`. A timeout fails the node (INPUT_TIMEOUT), which skips its dependants.
 * Waiting is a workflow condition with a timer: no activity, no worker slot, no credit.
 * With `screenshot: true` the waiting node shows the screenshot its needed scrape node took
 * (that node asks for `formats: ["screenshot"]`). docs/flows.md, "The input node".
 */
import { INPUT_PROMPT_MAX_CHARS, INPUT_TIMEOUT_DEFAULT_S, INPUT_TIMEOUT_MAX_S, INPUT_TIMEOUT_MIN_S } from '../flow-definitions';
import { hasPlaceholder, isInt } from '../flow-dag';
import type { FlowNodeKind } from './kind';

interface InputConfig {
  prompt: string;
  timeout?: number;
  screenshot?: boolean;
}

const KEYS = ['prompt', 'timeout', 'screenshot'];

export const inputNode: FlowNodeKind = {
  configProblems(config, at) {
    const problems: string[] = [];
    const prompt = config.prompt;
    if (prompt === undefined) problems.push(`${at}.prompt is required`);
    else if (typeof prompt !== 'string' || prompt.trim() === '') problems.push(`${at}.prompt must be a non-empty string`);
    else if (prompt.length > INPUT_PROMPT_MAX_CHARS) problems.push(`${at}.prompt must be at most ${INPUT_PROMPT_MAX_CHARS} characters`);
    if (config.timeout !== undefined && !isInt(config.timeout, INPUT_TIMEOUT_MIN_S, INPUT_TIMEOUT_MAX_S)) {
      problems.push(`${at}.timeout must be an integer number of seconds from ${INPUT_TIMEOUT_MIN_S} to ${INPUT_TIMEOUT_MAX_S}`);
    }
    if (config.screenshot !== undefined && typeof config.screenshot !== 'boolean') problems.push(`${at}.screenshot must be true or false`);
    for (const key of Object.keys(config)) if (!KEYS.includes(key)) problems.push(`${at}.${key} is not allowed`);
    return problems;
  },
  async run(node, ctx) {
    const config = node.config as unknown as InputConfig;
    // The prompt may name what earlier nodes found ("the code sent to {{ nodes.login.data.0.results.0.text }}").
    const prompt = hasPlaceholder(config.prompt) ? ctx.render(config.prompt) : { ok: true as const, value: config.prompt };
    if (!prompt.ok) return ctx.fail(prompt.error);
    const timeoutMs = (config.timeout ?? INPUT_TIMEOUT_DEFAULT_S) * 1000;
    const answer = await ctx.waitForInput({ prompt: String(prompt.value), timeoutMs, screenshot: config.screenshot === true });
    if (!answer.answered) {
      return ctx.fail({ code: 'INPUT_TIMEOUT', message: `no answer within ${timeoutMs / 1000} s` }, { attempts: 1 });
    }
    const output = { value: answer.value };
    ctx.setOutput(output);
    return ctx.succeed({ output, attempts: 1 });
  },
};
