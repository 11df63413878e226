/**
 * The log redaction list (platform/logger.ts) covers every secret of the configuration (issue 37):
 * a configuration logged whole shows none of them.
 */
import { Writable } from 'node:stream';
import { createLogger } from './logger';

it('redacts every secret of a logged configuration: LLM_API_KEY, STRIPE_*, the payload keys, the operator token, the local payment secret, SMTP_URL', () => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger({ level: 'info', destination });
  const secrets = {
    LLM_API_KEY: 'sk-llm-secret-1',
    STRIPE_SECRET_KEY: 'sk_live_secret-2',
    STRIPE_WEBHOOK_SECRET: 'whsec_secret-3',
    TEMPORAL_PAYLOAD_KEY: 'payload-key-secret-4',
    TEMPORAL_PAYLOAD_KEYS_OLD: 'old-payload-key-secret-5',
    OPERATOR_TOKEN: 'operator-token-secret-6',
    LOCAL_PAYMENT_SECRET: 'local-payment-secret-7',
    SMTP_URL: 'smtp://user:smtp-password-8@mail.example.test',
  };
  logger.info({ config: { ...secrets, LLM_MODEL: 'visible-model' } }, 'configuration');
  const output = lines.join('');
  expect(output).toContain('visible-model');
  for (const [name, value] of Object.entries(secrets)) {
    expect([name, output.includes(value)]).toEqual([name, false]);
  }
  expect(JSON.parse(lines[0]!)).toMatchObject({ config: { LLM_API_KEY: '[redacted]', STRIPE_SECRET_KEY: '[redacted]', STRIPE_WEBHOOK_SECRET: '[redacted]' } });
});
