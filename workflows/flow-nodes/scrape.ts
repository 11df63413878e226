/** `scrape`: one scrape; its config is a scrape request (placeholders allowed in its strings). */
import { flowScrapeRequestProblems } from '../flow-dag';
import type { FlowNodeKind } from './kind';

export const scrapeNode: FlowNodeKind = {
  configProblems: (config, at) => flowScrapeRequestProblems(config, at),
  scrapeRequest: { at: 'config', of: (config) => config },
  async run(node, ctx) {
    const request = ctx.render(node.config);
    if (!request.ok) return ctx.fail(request.error);
    const outcome = await ctx.scrape(request.value);
    if (!outcome.ok) return ctx.fail(outcome.error, { attempts: outcome.attempts, credits: outcome.credits });
    ctx.setOutput(outcome.output);
    return ctx.succeed({ output: outcome.output, attempts: outcome.attempts, credits: outcome.credits });
  },
};
