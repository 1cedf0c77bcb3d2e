# One image for both processes: the server (default) or the worker. Node runs them directly (not
# through npm) so SIGTERM reaches the process and it shuts down gracefully.
# Node 24, the current LTS line (package.json engines; scripts/node-lts-check.sh runs integration
# files under it in CI, the rest of CI runs the development machines' Node 20).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY drizzle/package.json drizzle/
COPY server/package.json server/
COPY worker/package.json worker/
COPY web/package.json web/
# postinstall: fixes postgres.js's connection queue and lost-connection transactions (see the script).
COPY scripts/patch-postgres.mjs scripts/
# Same fallback as .ci/run: the lock omits optional builds for other platforms.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY . .
RUN npm run build -w web && mkdir -p data/media && chown -R node:node data

FROM node:24-bookworm-slim
# NODE_OPTIONS: the V8 flags of scripts/infra.ts NODE_PROCESS_FLAGS (a larger young generation).
ENV NODE_ENV=production PORT=3000 NODE_OPTIONS=--max-semi-space-size=16
WORKDIR /app
COPY --from=build /app /app
EXPOSE 3000
USER node
CMD ["node", "--import", "tsx", "server/src/main.ts"]
