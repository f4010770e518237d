#!/bin/sh
# npm run start:prod: the server of an install made with `npm ci --omit=dev` and a build made
# beforehand (`npm run build` on a machine with the development packages, then dist/ copied over).
# It never builds; it runs with NODE_ENV=production, which refuses unsafe settings at start.
# `exec` makes node this process, so the SIGTERM of a service manager reaches the server itself
# (docs/operations.md "Build and start").
set -e
cd "$(dirname "$0")/.."
if [ ! -f dist/web/index.html ] || [ ! -f dist/ssr/entry-server.js ]; then
  echo "No build in dist/: run \`npm run build\` where the development packages are installed, then copy dist/ here (a folder, or the link and the .dist/ folder it points into)." >&2
  exit 1
fi
NODE_ENV=production
export NODE_ENV
exec sh scripts/serve.sh
