import path from 'node:path';
import { ConfigError, parseConfig } from './config';

describe('parseConfig', () => {
  it('applies the documented defaults', () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.SYNC_TIMEOUT_MS).toBe(50_000);
    expect(config.FREE_CREDITS).toBe(100);
    expect(config.ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.TEMPORAL_ADDRESS).toBeUndefined();
    expect(config.TEMPORAL_NAMESPACE).toBe('default');
    expect(config.dataDir).toBe(path.resolve('./.data'));
    expect(config.TEMPORAL_UI_URL).toBe('http://127.0.0.1:8233');
  });

  it('links the Temporal UI at TEMPORAL_UI_URL, else the embedded UI on TEMPORAL_UI_PORT', () => {
    expect(parseConfig({ TEMPORAL_UI_PORT: '9000' }).TEMPORAL_UI_URL).toBe('http://127.0.0.1:9000');
    expect(parseConfig({ TEMPORAL_UI_URL: 'https://temporal.example.com/' }).TEMPORAL_UI_URL).toBe('https://temporal.example.com');
    expect(() => parseConfig({ TEMPORAL_UI_URL: 'temporal.example.com' })).toThrow(/TEMPORAL_UI_URL: must be an http/);
  });

  it('parses booleans, lists and numbers', () => {
    const config = parseConfig({ ALLOW_PRIVATE_TARGETS: 'true', BLACKLIST_HOSTS: ' Example.com, *.bad.test ,', PORT: '8080' });
    expect(config.ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(config.BLACKLIST_HOSTS).toEqual(['example.com', '*.bad.test']);
    expect(config.PORT).toBe(8080);
  });

  it('treats empty values as unset', () => {
    expect(parseConfig({ DATABASE_URL: '  ', PORT: '' }).PORT).toBe(3000);
  });

  it('lists every bad value with its name', () => {
    let error: unknown;
    try {
      parseConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ALLOW_PRIVATE_TARGETS: 'maybe', TEMPORAL_ADDRESS: 'nohost' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT: must be a port number/);
    expect(problems).toMatch(/DATABASE_URL: must be a postgres/);
    expect(problems).toMatch(/ALLOW_PRIVATE_TARGETS: must be true or false/);
    expect(problems).toMatch(/TEMPORAL_ADDRESS: must be host:port/);
  });

  it('refuses a batch larger than one ScrapeRunIds value can list', () => {
    expect(parseConfig({ SCRAPE_BATCH_MAX: '50' }).SCRAPE_BATCH_MAX).toBe(50);
    expect(() => parseConfig({ SCRAPE_BATCH_MAX: '60' })).toThrow(/SCRAPE_BATCH_MAX/);
  });

  it('refuses a short auth secret', () => {
    expect(() => parseConfig({ BETTER_AUTH_SECRET: 'short' })).toThrow(/BETTER_AUTH_SECRET: must be at least 32 characters/);
  });

  it('takes payments only through a provider asked for: never the self-confirming local one by default', () => {
    for (const NODE_ENV of [undefined, 'development', 'test', 'production']) expect(parseConfig({ NODE_ENV }).PAYMENT_PROVIDER).toBe('none');
    expect(parseConfig({ PAYMENT_PROVIDER: 'local' }).PAYMENT_PROVIDER).toBe('local');
    expect(parseConfig({ NODE_ENV: 'test', PAYMENT_PROVIDER: 'local' }).PAYMENT_PROVIDER).toBe('local');
    expect(() => parseConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'local' })).toThrow(/PAYMENT_PROVIDER: "local" hands out credit for free and is refused in production/);
    // Stripe's keys say which provider is meant; half of them is an error, not payments silently off.
    expect(parseConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).PAYMENT_PROVIDER).toBe('stripe');
    expect(() => parseConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/PAYMENT_PROVIDER: "stripe" needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/);
    expect(parseConfig({ PAYMENT_PROVIDER: 'none', STRIPE_SECRET_KEY: 'sk_test_x' }).PAYMENT_PROVIDER).toBe('none');
  });

  it('TEMPORAL_PAYLOAD_KEY=off (the codec bench\'s baseline) is refused in production', () => {
    expect(parseConfig({ TEMPORAL_PAYLOAD_KEY: 'off' }).TEMPORAL_PAYLOAD_KEY).toBe('off');
    expect(() => parseConfig({ NODE_ENV: 'production', TEMPORAL_PAYLOAD_KEY: 'off', BETTER_AUTH_SECRET: 'x'.repeat(40) })).toThrow(/TEMPORAL_PAYLOAD_KEY: "off" leaves Temporal payloads in clear and is refused in production/);
    expect(() => parseConfig({ TEMPORAL_PAYLOAD_KEY: 'of' })).toThrow(/TEMPORAL_PAYLOAD_KEY: must be 32 bytes in base64/);
  });

  it('with Stripe, refuses a subscription period that is not whole days (Stripe bills in days)', () => {
    const stripe = { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(() => parseConfig({ ...stripe, SUBSCRIPTION_PERIOD_SECONDS: '4' })).toThrow(/SUBSCRIPTION_PERIOD_SECONDS: with PAYMENT_PROVIDER "stripe" a period is a whole number of days/);
    expect(parseConfig({ ...stripe, SUBSCRIPTION_PERIOD_SECONDS: '86400' }).SUBSCRIPTION_PERIOD_SECONDS).toBe(86_400);
    expect(parseConfig({ PAYMENT_PROVIDER: 'local', SUBSCRIPTION_PERIOD_SECONDS: '4' }).SUBSCRIPTION_PERIOD_SECONDS).toBe(4);
  });

  it('parses PROXY_URLS into endpoints and says what is wrong without printing a credential', () => {
    expect(parseConfig({}).PROXY_URLS).toEqual([]);
    const config = parseConfig({ PROXY_URLS: 'http://u:topsecret@p1.example:3128, socks5://p2.example:1080', PROXY_COOLDOWN_MS: '5000', PROXY_STICKY: 'true' });
    expect(config.PROXY_URLS.map((p) => p.id)).toEqual(['p1.example:3128', 'p2.example:1080']);
    expect(config.PROXY_COOLDOWN_MS).toBe(5000);
    expect(config.PROXY_STICKY).toBe(true);
    expect(JSON.stringify(config)).not.toContain('topsecret');
    let error: unknown;
    try {
      parseConfig({ PROXY_URLS: 'ftp://u:topsecret@p1.example:2121' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(['PROXY_URLS: item 1 (p1.example:2121): the scheme must be http://, https:// or socks5://']);
    expect((error as Error).message).not.toContain('topsecret');
  });
});
