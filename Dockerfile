# TreeAnalyzer Pro: one container, one SQLite file on a volume (docs/operations.md, Deploying).
#
#   docker build -t treeanalyzer .
#   docker run -p 3000:3000 -v treeanalyzer-data:/data -e PUBLIC_URL=https://trees.example.com treeanalyzer
#
# Three stages: `deps` compiles the native modules (better-sqlite3, argon2, sharp's loader)
# for production only; `build` installs everything and builds the dashboard, widget and the
# bundled server; the final image holds node, the production node_modules, dist/ and the
# migrations, and runs as the unprivileged `node` user. The project's .npmrc (nodedir=/usr,
# for Debian's Node on a box without internet) stays out: here Node lives under /usr/local
# and better-sqlite3's prebuilt binary can be fetched.
# Node 24 LTS: Node 20 reached its end of life in April 2026; CI runs the whole suite on 24 (.ci/run).

FROM node:24-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY db/migrations ./db/migrations
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# /healthz answers once the database is open and migrated.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# SIGTERM reaches node directly (no npm in between), so open requests finish on stop.
CMD ["node", "--enable-source-maps", "dist/server/main.js"]
