# One image for the API and the workers (the command picks the role).
# http mode's TLS relay (deploy/tls-relay, Go and utls; docs/scraping.md "How we look to a site"), built in a Go stage.
FROM golang:1.25-bookworm AS tls-relay
WORKDIR /src
COPY deploy/tls-relay/ ./
RUN CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -buildvcs=false -o /tls-relay .

FROM node:20-bookworm-slim
# Debian's Chromium (full, new headless) for browser-mode workers (Playwright drives it; it downloads no browser);
# libnss3-tools' certutil gives it NODE_EXTRA_CA_CERTS (scrape/browser/extra-ca.ts).
RUN apt-get update && apt-get install -y --no-install-recommends chromium ca-certificates libnss3-tools && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
# Prisma's CLI wants a schema-engine binary even for `generate`, which needs none (offline builds).
# The web console (/dashboard) is built into dist/dashboard/ (docs/dashboard.md).
RUN PRISMA_SCHEMA_ENGINE_BINARY=/usr/local/bin/node npx prisma generate && node scripts/build-dashboard.cjs && npm prune --omit=dev
# The relay where the workers look for it: <DATA_DIR>/bin/tls-relay-<hash of its sources> (scripts/tls-relay.cjs).
COPY --from=tls-relay /tls-relay /tmp/tls-relay
RUN node -e "const fs=require('fs'),path=require('path');const t=require('./scripts/tls-relay.cjs').binaryPath('/app/.data');fs.mkdirSync(path.dirname(t),{recursive:true});fs.copyFileSync('/tmp/tls-relay',t);fs.chmodSync(t,0o755)" && rm /tmp/tls-relay && chown -R node /app/.data
ENV NODE_ENV=production CHROMIUM_PATH=/usr/lib/chromium/chromium
USER node
EXPOSE 3000 9464
CMD ["node", "--import", "tsx", "api/server.ts"]
