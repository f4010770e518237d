CREATE TABLE "limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"rule" text NOT NULL,
	"account_id" integer,
	"ip" text DEFAULT '' NOT NULL,
	"count" integer NOT NULL,
	"max_count" integer NOT NULL,
	"window_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" integer,
	CONSTRAINT "payment_alerts_kind" CHECK ("payment_alerts"."kind" IN ('possible_card_testing'))
);
--> statement-breakpoint
ALTER TABLE "payment_alerts" ADD CONSTRAINT "payment_alerts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_alerts" ADD CONSTRAINT "payment_alerts_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "limit_counters_reset_at" ON "limit_counters" USING btree ("reset_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_alerts_window_key" ON "payment_alerts" USING btree ("window_key");--> statement-breakpoint
CREATE INDEX "payment_alerts_open" ON "payment_alerts" USING btree ("created_at") WHERE "payment_alerts"."reviewed_at" IS NULL;