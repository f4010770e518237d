#!/bin/sh
# The server's one Node command: `npm start` and `npm run start:prod` exec it, and so do the container,
# the systemd unit, the benchmarks and the tests that start a real server (docs/operations.md "Build
# and start", "Memory"). `exec` makes node this process, so a SIGTERM reaches the server itself.
#   --experimental-strip-types  Node runs the TypeScript sources itself: no loader thread (on Node
#                               22.18 and later the flag is the default and changes nothing)
#   --max-semi-space-size=4     V8's young generation in 4 MB halves instead of 16, in both of the
#                               server's JavaScript threads
#   --v8-pool-size=2            two V8 helper threads instead of four (the machines have two cores)
#   --expose-gc                 lets the server collect start-up's garbage just before it listens
#                               (src/server/memory.ts) instead of carrying it until V8's idle collector runs
#   MALLOC_ARENA_MAX=2          at most two glibc malloc arenas instead of eight per core, each thread's
#                               freed memory otherwise kept apart (set it to override)
# Arguments: the entry and its arguments (default src/server/main.ts). NODE_OPTIONS adds to these.
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then set -- src/server/main.ts; fi
MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_ARENA_MAX
exec node --experimental-strip-types --max-semi-space-size=4 --v8-pool-size=2 --expose-gc --enable-source-maps "$@"
