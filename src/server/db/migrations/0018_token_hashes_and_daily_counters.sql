CREATE TABLE "daily_counters" (
	"key" text NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_counters_key_day_pk" PRIMARY KEY("key","day")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "carries_token" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "daily_counters_day" ON "daily_counters" USING btree ("day");--> statement-breakpoint
CREATE INDEX "files_unowned" ON "files" USING btree ("id") WHERE "files"."application_id" IS NULL AND "files"."account_id" IS NULL;--> statement-breakpoint
CREATE INDEX "password_resets_user" ON "password_resets" USING btree ("user_id");