-- Attempts of a scrape that went through an outbound proxy (PROXY_URLS): which proxy (host:port,
-- never its credentials) and how each ended; GET /webhook/runs/:id shows them as `proxy_attempts`.
ALTER TABLE "scrape_run" ADD COLUMN "proxyAttempts" JSONB;
