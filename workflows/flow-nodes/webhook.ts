/** `webhook`: POSTs the run's outputs to `url` (placeholders allowed); its output is the answer's `{ status }`. */
import { hasPlaceholder, isHttpUrl } from '../flow-dag';
import type { FlowNodeKind } from './kind';

export const webhookNode: FlowNodeKind = {
  configProblems(config, at) {
    const problems: string[] = [];
    const url = config.url;
    if (typeof url !== 'string' || url.trim() === '') problems.push(`${at}.url is required (an http(s) URL)`);
    else if (!hasPlaceholder(url) && !isHttpUrl(url.trim())) problems.push(`${at}.url must be an absolute http(s) URL`);
    else if (hasPlaceholder(url) && !/^https?:\/\//i.test(url.trim())) problems.push(`${at}.url must start with http:// or https://`);
    for (const key of Object.keys(config)) if (key !== 'url') problems.push(`${at}.${key} is not allowed`);
    return problems;
  },
  async run(node, ctx) {
    const url = ctx.render<unknown>((node.config as { url: string }).url);
    if (!url.ok) return ctx.fail(url.error);
    const answer = await ctx.postWebhook(String(url.value));
    ctx.setOutput({ status: answer.status });
    return ctx.succeed({ output: { status: answer.status }, attempts: answer.attempts });
  },
};
