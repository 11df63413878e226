/** `delay`: a durable timer of `ms` milliseconds; its output is `{ ms }`. */
import { MAX_DELAY_MS, isInt } from '../flow-dag';
import type { FlowNodeKind } from './kind';

export const delayNode: FlowNodeKind = {
  configProblems(config, at) {
    const problems: string[] = [];
    if (!isInt(config.ms, 1, MAX_DELAY_MS)) problems.push(`${at}.ms must be an integer from 1 to ${MAX_DELAY_MS}`);
    for (const key of Object.keys(config)) if (key !== 'ms') problems.push(`${at}.${key} is not allowed`);
    return problems;
  },
  async run(node, ctx) {
    const ms = (node.config as { ms: number }).ms;
    await ctx.sleep(ms);
    ctx.setOutput({ ms });
    return ctx.succeed({ output: { ms }, attempts: 1 });
  },
};
