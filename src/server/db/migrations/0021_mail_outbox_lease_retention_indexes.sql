ALTER TABLE "mail_outbox" ADD COLUMN "leased_by" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "applications_status_updated" ON "applications" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_sent_with_text" ON "mail_outbox" USING btree ("sent_at") WHERE "mail_outbox"."status" = 'sent' AND "mail_outbox"."text_body" <> '';--> statement-breakpoint
CREATE INDEX "password_resets_expires" ON "password_resets" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "ratings_created" ON "ratings" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sessions_expires" ON "sessions" USING btree ("expires_at");