# syntax=docker/dockerfile:1
# Multi-stage: build the bundles with every dependency, then run with production dependencies
# only, as a non-root user. The same commands as the README: npm install, npm run build, then the server.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY src ./src
COPY scripts ./scripts
COPY content ./content
COPY drizzle ./drizzle
COPY public ./public
COPY tsconfig.json vite.config.ts ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node directly (not npm) so that SIGTERM from the container runtime reaches the server.
CMD ["node", "--import", "tsx", "src/server/main.ts"]
