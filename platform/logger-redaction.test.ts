/**
 * The log redaction list (platform/logger.ts) covers the model's key and Stripe's secrets (issue
 * 37): a configuration logged whole shows none of them.
 */
import { Writable } from 'node:stream';
import { createLogger } from './logger';

it('redacts LLM_API_KEY and the STRIPE_* secrets of a logged configuration', () => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger({ level: 'info', destination });
  const secrets = { LLM_API_KEY: 'sk-llm-secret-1', STRIPE_SECRET_KEY: 'sk_live_secret-2', STRIPE_WEBHOOK_SECRET: 'whsec_secret-3' };
  logger.info({ config: { ...secrets, LLM_MODEL: 'visible-model' } }, 'configuration');
  const output = lines.join('');
  expect(output).toContain('visible-model');
  for (const [name, value] of Object.entries(secrets)) {
    expect([name, output.includes(value)]).toEqual([name, false]);
  }
  expect(JSON.parse(lines[0]!)).toMatchObject({ config: { LLM_API_KEY: '[redacted]', STRIPE_SECRET_KEY: '[redacted]', STRIPE_WEBHOOK_SECRET: '[redacted]' } });
});
