ALTER TABLE "mail_outbox" ADD COLUMN "leased_by" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "lease_until" timestamp with time zone;