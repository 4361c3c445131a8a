# The storefront as an image (decision 0115): built with every dependency, then only what
# `npm start` needs in a slim runtime that runs as a non-root user.
#
#   docker build -t conecta-storefront .
#   docker run --env-file .env -p 3000:3000 -v tienda-data:/data conecta-storefront
#
# `scripts/check-dockerfile.mjs` (run by the test command) holds this file to package.json's
# start command, the production install's list of files, .nvmrc and the server's /healthz.
# No Docker engine runs where this project is built and tested: README says what was checked.

# The Node of .nvmrc and of the `node` devDependency.
ARG NODE_VERSION=24.21.0

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# The dependencies first, from the manifest and the lockfile alone: this layer is reused until
# one of them changes. `npm install`, not `npm ci` (README).
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
# The commit for /metrics' storefront_build_info (.git is not copied in): pass
# --build-arg BUILD_COMMIT=$(git rev-parse HEAD); without it the build says "unknown".
ARG BUILD_COMMIT
RUN npm run build && npm prune --omit=dev

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# pg_dump and pg_restore for `npm run ops -- respaldo` / `restaurar` on PostgreSQL (Debian's
# client: it dumps servers up to its own major version).
RUN apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir /data \
  && chown node:node /data
ENV NODE_ENV=production \
  DATA_DIR=/data \
  PORT=3000
WORKDIR /app
# What a production install carries (tests/e2e/production-install.spec.ts), and its
# node_modules without the dev dependencies. Owned by root: the server cannot change its code.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/build ./build
COPY --from=build /app/dist ./dist
COPY --from=build /app/node_modules ./node_modules
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# package.json's "start", run by node itself so that SIGTERM reaches the server (npm would stand
# between them): the same heap cap (decision 0048).
CMD ["node", "--max-old-space-size=192", "--max-semi-space-size=16", "dist/server.js"]
