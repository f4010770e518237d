# syntax=docker/dockerfile:1
# GoodStanding in a container (docs/operations.md "Container"). Two stages: the build stage has the
# development packages and builds the web client; the runtime stage installs the production
# packages only (npm ci --omit=dev) and runs as the unprivileged `node` user.
# tests/production/install.test.ts repeats the runtime stage's COPY and RUN lines without Docker.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# dist is a link to the build's folder under .dist/ (scripts/build.mjs): copy the folder itself.
RUN npm run build && cp -rL dist /app/dist-built

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/goodstanding
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/src/server ./src/server
COPY --from=build /app/src/shared ./src/shared
COPY --from=build /app/scripts/start-prod.sh ./scripts/start-prod.sh
COPY --from=build /app/scripts/serve.sh ./scripts/serve.sh
COPY --from=build /app/dist-built ./dist
RUN mkdir -p /var/lib/goodstanding && chown node:node /var/lib/goodstanding
USER node
EXPOSE 3000
VOLUME ["/var/lib/goodstanding"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
STOPSIGNAL SIGTERM
# start-prod.sh execs scripts/serve.sh, which execs node, so node is process 1 and receives the SIGTERM of `docker stop`
# itself (src/server/main.ts handles it; process 1 has no default signal handlers).
CMD ["sh", "scripts/start-prod.sh"]
