# syntax=docker/dockerfile:1
# Multi-stage: build the bundles and the compiled server with every dependency, then run with
# production dependencies only, as a non-root user. The same commands as the README: npm install,
# npm run build, then the compiled server with plain node.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
# glibc's malloc gives memory of 128 KB and more back to the system as soon as it is freed, instead
# of keeping what making a picture took (docs/decisions/047-a-memory-budget-for-making-pictures.md).
ENV GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
# The compiled server (dist/server-node), the server-rendering entry and the browser assets.
COPY --from=build /app/dist ./dist
# Read at run time: migrations and content files (public/ is inside dist/client already).
COPY drizzle ./drizzle
COPY content ./content
# The link-preview cards' font (docs/decisions/053-link-preview-cards.md).
COPY assets ./assets
# Only for the operators' commands (npm run enquiries, subscribers, content:sync), which run
# from source through tsx; the server itself never loads them.
COPY src ./src
COPY scripts ./scripts
COPY tsconfig.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node directly (not npm) so that SIGTERM from the container runtime reaches the server.
CMD ["node", "dist/server-node/main.js"]
