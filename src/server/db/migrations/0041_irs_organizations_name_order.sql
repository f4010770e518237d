-- The instant check's lookup by name (docs/irs-standing.md "Instant check") pages through matches
-- in name order. A common word matches a large part of a national BMF, and sorting every match
-- for each page took 0.7-1.6 s at 1.9 million rows (docs/benchmarks.md "IRS national files on
-- PostgreSQL"). This index gives that order and carries search_text, so an index-only scan can
-- read a page without sorting and without visiting the table. A rare word still goes through the
-- pg_trgm index; the planner chooses. Not in schema.ts: Drizzle's index builder has no INCLUDE.
CREATE INDEX IF NOT EXISTS "irs_organizations_name_order" ON "irs_organizations" USING btree ("name", "ein") INCLUDE ("search_text");
