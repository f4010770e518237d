-- Rate-limit counters live for a minute and guard load, not money: they need not survive a crash
-- of PostgreSQL (an unlogged table is emptied then) and are not wanted on a replica. Unlogged, an
-- upsert of a batch of hits writes no WAL and waits for no flush at commit, which made the public
-- form submit on PostgreSQL as fast as with counters in memory (docs/benchmarks.md). Room left on
-- each page lets the hit count be updated in place (a HOT update) instead of in a new page.
ALTER TABLE "rate_limits" SET UNLOGGED;--> statement-breakpoint
ALTER TABLE "rate_limits" SET (fillfactor = 50);
