ALTER TABLE "mail_outbox" ADD COLUMN "html_body" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "invited_at" timestamp with time zone;