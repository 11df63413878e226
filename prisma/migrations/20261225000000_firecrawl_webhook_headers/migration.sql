-- A Firecrawl-compatible job's webhook (webhooks/firecrawl.ts): the caller's headers, sent with each
-- attempt of the delivery; non-null marks a delivery also signed with X-Firecrawl-Signature.
ALTER TABLE "webhook_delivery" ADD COLUMN "firecrawlHeaders" JSONB;
