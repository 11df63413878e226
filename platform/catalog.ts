/** The credit packs and subscription plans on sale (CREDIT_PACKS, SUBSCRIPTION_PLANS in platform/config.ts): their shape and the defaults. */
import { z } from 'zod';

const catalogId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'ids are 1-40 of a-z, 0-9, _ and -');

export const creditPackSchema = z.object({
  id: catalogId,
  name: z.string().min(1).max(80),
  credits: z.number().int().positive(),
  priceCents: z.number().int().positive(),
  currency: z.string().regex(/^[a-z]{3}$/, 'currency must be a 3-letter ISO code in lower case'),
});
export type CreditPack = z.infer<typeof creditPackSchema>;

export const planSchema = z.object({
  id: catalogId,
  name: z.string().min(1).max(80),
  /** Credit added at the start of every period. */
  creditsPerPeriod: z.number().int().min(0),
  /** Price of one period; 0 = free (no payment, active at once). */
  priceCents: z.number().int().min(0),
  currency: z.string().regex(/^[a-z]{3}$/, 'currency must be a 3-letter ISO code in lower case'),
});
export type Plan = z.infer<typeof planSchema>;

export const DEFAULT_CREDIT_PACKS: CreditPack[] = [
  { id: 'pack-1k', name: '1,000 credits', credits: 1000, priceCents: 1000, currency: 'usd' },
  { id: 'pack-5k', name: '5,000 credits', credits: 5000, priceCents: 4500, currency: 'usd' },
  { id: 'pack-25k', name: '25,000 credits', credits: 25000, priceCents: 20000, currency: 'usd' },
];

export const DEFAULT_PLANS: Plan[] = [
  { id: 'free', name: 'Free', creditsPerPeriod: 0, priceCents: 0, currency: 'usd' },
  { id: 'starter', name: 'Starter', creditsPerPeriod: 2000, priceCents: 1500, currency: 'usd' },
  { id: 'pro', name: 'Pro', creditsPerPeriod: 10000, priceCents: 6000, currency: 'usd' },
];
