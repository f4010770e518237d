ALTER TABLE "accounts" ADD COLUMN "email" text;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_email_unique" ON "accounts" USING btree (lower("email"));