# Questions Inbox: the Node server (dist-server/start.js) with the built portal (dist/) and the
# server's render of its first screen (dist-ssr/, docs/server-rendering.md).
#
#   docker build -t questions-inbox .
#   docker run --rm -p 8080:8080 questions-inbox                    # demo: the mock Reflexio
#   docker run --rm -p 8080:8080 -e REFLEXIO_URL=https://reflexio.internal \
#     -e REFLEXIO_API_KEY=… -e ALLOWED_HOSTS=tools.example.com questions-inbox
#
# Not built with Docker in this project's CI (no container engine there): the same commands run
# in a clean folder instead (scripts/image-steps.test.ts). See docs/deploy.md, "Container and Kubernetes".

# ---- 1. Build: the portal (dist/, with .br/.gz next to the assets) and the server. ----
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# Where the embedded audit trail lives (DATA_DIR, default ./data): made here to be copied on
# owned by the server's user (docs/audit.md; with DATABASE_URL it stays empty).
RUN mkdir -p data

# ---- 2. Runtime dependencies only (hono, @hono/node-server, zod; no Vite, no tsx). The npm
# cache of this stage stays behind: only node_modules is copied on. ----
FROM node:20-alpine AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund

# ---- 3. Run: a small base, a user without privileges, files it cannot change. ----
FROM node:20-alpine
# An init as process 1 (Alpine's tini): it passes signals on and reaps zombies, which node, not
# written to be process 1, does not. Restarts after kill -9 or the OOM killer do not depend on it:
# the DATA_DIR lock is a socket the kernel releases when the server dies (docs/deploy.md).
RUN apk add --no-cache tini
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/dist ./dist
COPY --from=build /app/dist-server ./dist-server
COPY --from=build /app/dist-ssr ./dist-ssr
# The image's files stay root's: the server only reads them (readOnlyRootFilesystem works). The
# one folder it writes is the embedded audit trail's: mount a volume there to keep it, or set
# DATABASE_URL (several replicas must: one folder serves one process).
COPY --from=build --chown=node:node /app/data ./data
VOLUME /app/data
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD wget -qO- http://127.0.0.1:8080/healthz || exit 1
# SIGTERM reaches node through tini (no shell in between): in-flight requests finish, exit within 10 s.
ENTRYPOINT ["/sbin/tini", "--"]
CMD ["node", "dist-server/start.js", "--production"]
