/**
 * The rules between configuration settings (platform/config.ts parses each setting alone, then
 * asks these): which payment provider is in force and what a combination of settings rules out.
 */

/** The settings these rules read. */
export interface CrossFieldSettings {
  NODE_ENV?: string;
  PAYMENT_PROVIDER?: 'stripe' | 'none' | 'local';
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  SUBSCRIPTION_PERIOD_SECONDS: number;
  NOTIFY_EMAIL: boolean;
  SMTP_URL?: string;
  CREDIT_PACKS: ReadonlyArray<{ id: string }>;
  SUBSCRIPTION_PLANS: ReadonlyArray<{ id: string }>;
  TEMPORAL_PAYLOAD_KEY?: string;
}

/** The payment provider in force and the problems of the settings taken together. */
export function crossFieldProblems(data: CrossFieldSettings): { provider: 'stripe' | 'none' | 'local'; problems: string[] } {
  const problems: string[] = [];
  // Never "local" by default: its helper route lets every signed-in user mint credit (docs/billing.md).
  const provider = data.PAYMENT_PROVIDER ?? (data.STRIPE_SECRET_KEY || data.STRIPE_WEBHOOK_SECRET ? 'stripe' : 'none');
  if (provider === 'local' && data.NODE_ENV === 'production') problems.push('PAYMENT_PROVIDER: "local" hands out credit for free and is refused in production');
  if (provider === 'stripe' && (!data.STRIPE_SECRET_KEY || !data.STRIPE_WEBHOOK_SECRET)) {
    problems.push('PAYMENT_PROVIDER: "stripe" needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  }
  // Stripe Billing bills plans in whole days, weeks, months or years (docs/billing.md).
  if (provider === 'stripe' && data.SUBSCRIPTION_PERIOD_SECONDS % 86_400 !== 0) {
    problems.push('SUBSCRIPTION_PERIOD_SECONDS: with PAYMENT_PROVIDER "stripe" a period is a whole number of days (a multiple of 86400)');
  }
  // "off": the payload codec's benchmark baseline (bench/payload-codec-e2e.ts); payloads would be in clear in Temporal.
  if (data.TEMPORAL_PAYLOAD_KEY === 'off' && data.NODE_ENV === 'production') problems.push('TEMPORAL_PAYLOAD_KEY: "off" leaves Temporal payloads in clear and is refused in production');
  if (data.NOTIFY_EMAIL && !data.SMTP_URL) problems.push('NOTIFY_EMAIL: needs SMTP_URL');
  for (const [name, list] of [['CREDIT_PACKS', data.CREDIT_PACKS], ['SUBSCRIPTION_PLANS', data.SUBSCRIPTION_PLANS]] as const) {
    const ids = list.map((item) => item.id);
    if (new Set(ids).size !== ids.length) problems.push(`${name}: ids must be unique`);
  }
  return { provider, problems };
}

/** A 32-byte key written in base64 (standard or url-safe). */
export function isBase64Key32(value: string): boolean {
  return /^[A-Za-z0-9+/_-]{43}=?$/.test(value) && Buffer.from(value, 'base64').length === 32;
}
