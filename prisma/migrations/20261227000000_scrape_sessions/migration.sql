-- Stored sessions (docs/scraping.md, "Sessions"): one per account and name, its Playwright storage
-- state (cookies and local storage) encrypted with AES-256-GCM under the key named by "keyId"
-- (the account and name are the cipher's associated data). What the list shows (domains, size,
-- expiry) is kept beside it in clear; cookie names and values never are.

-- CreateTable
CREATE TABLE "scrape_session" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "iv" BYTEA NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "authTag" BYTEA NOT NULL,
    "domains" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "sizeBytes" INTEGER NOT NULL,
    "cookieCount" INTEGER NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "expiresAt" TIMESTAMPTZ(6),
    "createdAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(6),

    CONSTRAINT "scrape_session_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "scrape_session_userId_name_key" ON "scrape_session"("userId", "name");

-- AddForeignKey
ALTER TABLE "scrape_session" ADD CONSTRAINT "scrape_session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
