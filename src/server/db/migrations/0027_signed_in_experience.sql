ALTER TABLE "mail_outbox" ADD COLUMN "html_body" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "invited_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "renewals_one_open_per_account" ON "renewals" USING btree ("account_id") WHERE "renewals"."applied_at" IS NULL;