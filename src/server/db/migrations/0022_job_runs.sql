CREATE TABLE "job_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "job_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"job_name" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"result" text DEFAULT 'running' NOT NULL,
	"error" text,
	"items_done" integer DEFAULT 0 NOT NULL,
	"summary" jsonb,
	"attempt" integer DEFAULT 1 NOT NULL,
	"trigger" text NOT NULL,
	"server" text NOT NULL,
	"staff_user_id" integer,
	CONSTRAINT "job_runs_result" CHECK ("job_runs"."result" IN ('running', 'ok', 'failed', 'timed_out')),
	CONSTRAINT "job_runs_trigger" CHECK ("job_runs"."trigger" IN ('schedule', 'staff', 'startup'))
);
--> statement-breakpoint
ALTER TABLE "job_runs" ADD CONSTRAINT "job_runs_staff_user_id_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_runs_job_started" ON "job_runs" USING btree ("job_name","started_at");