CREATE TABLE "late_penalty_figures" (
	"due_year" integer PRIMARY KEY NOT NULL,
	"daily_cents" integer NOT NULL,
	"maximum_cents" integer NOT NULL,
	"large_receipts_over_cents" bigint NOT NULL,
	"large_daily_cents" integer NOT NULL,
	"large_maximum_cents" integer NOT NULL,
	"source" text NOT NULL,
	"source_url" text DEFAULT '' NOT NULL,
	"entered_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "late_penalty_figures_year" CHECK ("late_penalty_figures"."due_year" BETWEEN 2000 AND 2100),
	CONSTRAINT "late_penalty_figures_amounts" CHECK ("late_penalty_figures"."daily_cents" > 0 AND "late_penalty_figures"."maximum_cents" > "late_penalty_figures"."daily_cents" AND "late_penalty_figures"."large_receipts_over_cents" > 0
        AND "late_penalty_figures"."large_daily_cents" > "late_penalty_figures"."daily_cents" AND "late_penalty_figures"."large_maximum_cents" > "late_penalty_figures"."maximum_cents"),
	CONSTRAINT "late_penalty_figures_source" CHECK (length("late_penalty_figures"."source") > 0)
);
--> statement-breakpoint
ALTER TABLE "late_penalty_figures" ADD CONSTRAINT "late_penalty_figures_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;