ALTER TABLE "irs_bulk_checks" ADD COLUMN "leased_by" text;--> statement-breakpoint
ALTER TABLE "irs_bulk_checks" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "irs_bulk_checks_running_lease_idx" ON "irs_bulk_checks" USING btree ("lease_until") WHERE "irs_bulk_checks"."status" = 'running';--> statement-breakpoint
CREATE INDEX "irs_bulk_checks_finished_at_idx" ON "irs_bulk_checks" USING btree ("finished_at");