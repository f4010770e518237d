CREATE TABLE "contest_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"contest" text NOT NULL,
	"organization" text NOT NULL,
	"email" text NOT NULL,
	"type" text DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"is_member" boolean DEFAULT false NOT NULL,
	"file_id" integer,
	"counts" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contest_entries" ADD CONSTRAINT "contest_entries_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contest_entries_contest_email" ON "contest_entries" USING btree ("contest","email");--> statement-breakpoint
CREATE INDEX "contest_entries_contest_org" ON "contest_entries" USING btree ("contest",lower("organization"));--> statement-breakpoint
CREATE INDEX "contest_entries_contest_created" ON "contest_entries" USING btree ("contest","created_at");