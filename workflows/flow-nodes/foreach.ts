/**
 * `foreach`: scrapes each item of an earlier node's list (`from`, one placeholder) with `request`,
 * whose `{{ item... }}` placeholders take each item; at most `concurrency` at once, in a child
 * workflow. Partial failures are reported per item; the node fails only when every item failed.
 */
import { DEFAULT_FOREACH_CONCURRENCY, MAX_FOREACH_CONCURRENCY, WHOLE_PLACEHOLDER, flowScrapeRequestProblems, isInt, parseExpression } from '../flow-dag';
import type { FlowNodeKind } from './kind';

interface ForeachConfig {
  from: string;
  request: Record<string, unknown>;
  concurrency?: number;
}

export const foreachNode: FlowNodeKind = {
  configProblems(config, at) {
    const problems: string[] = [];
    const from = config.from;
    const whole = typeof from === 'string' ? WHOLE_PLACEHOLDER.exec(from) : null;
    const ref = whole ? parseExpression(whole[1]!) : undefined;
    if (!ref || ref.nodeId === undefined) problems.push(`${at}.from must be a single placeholder {{ nodes.<id>.<path> }} naming a list`);
    problems.push(...flowScrapeRequestProblems(config.request, `${at}.request`));
    if (config.concurrency !== undefined && !isInt(config.concurrency, 1, MAX_FOREACH_CONCURRENCY)) {
      problems.push(`${at}.concurrency must be an integer from 1 to ${MAX_FOREACH_CONCURRENCY}`);
    }
    for (const key of Object.keys(config)) if (!['from', 'request', 'concurrency'].includes(key)) problems.push(`${at}.${key} is not allowed`);
    return problems;
  },
  scrapeRequest: { at: 'config.request', of: (config) => config.request },
  itemScope: 'config.request',
  async run(node, ctx) {
    const config = node.config as unknown as ForeachConfig;
    const rendered = ctx.render<unknown>(config.from);
    if (!rendered.ok) return ctx.fail(rendered.error);
    const list = rendered.value;
    if (!Array.isArray(list)) return ctx.fail({ code: 'NOT_A_LIST', message: `${config.from} is not a list` });
    // `{{ nodes... }}` now; `{{ item... }}` per item, in the child.
    const request = ctx.render(config.request, { keepItem: true });
    if (!request.ok) return ctx.fail(request.error);
    const summary = await ctx.scrapeEach(list, request.value, config.concurrency ?? DEFAULT_FOREACH_CONCURRENCY);
    const credits = await ctx.credits();
    ctx.setOutput(summary);
    if (summary.total > 0 && summary.succeeded === 0) {
      return ctx.fail({ code: 'ALL_ITEMS_FAILED', message: `all ${summary.total} items failed` }, { items: summary, output: summary, credits });
    }
    return ctx.succeed({ output: summary, items: summary, credits, attempts: 1 });
  },
};
