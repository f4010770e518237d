CREATE TABLE "compliance_education" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"year" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_by" integer,
	"recipients" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gen_update_reminders" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"period_end" date NOT NULL,
	"tier" text NOT NULL,
	"mails" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gen_update_reminders_tier" CHECK ("gen_update_reminders"."tier" IN ('opened', 'closing'))
);
--> statement-breakpoint
CREATE TABLE "gen_updates" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"period_end" date NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"submitted_on" date,
	"submitted_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gen_updates_status" CHECK ("gen_updates"."status" IN ('draft', 'submitted'))
);
--> statement-breakpoint
CREATE TABLE "irs_bmf_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"release_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"field" text NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	CONSTRAINT "irs_bmf_changes_field" CHECK ("irs_bmf_changes"."field" IN ('name', 'address'))
);
--> statement-breakpoint
CREATE TABLE "irs_pub78" (
	"ein" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"deductibility_codes" text DEFAULT '' NOT NULL,
	"release_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roster_import_rows" (
	"id" serial PRIMARY KEY NOT NULL,
	"import_id" integer NOT NULL,
	"action" text NOT NULL,
	"ein" text NOT NULL,
	"account_id" integer,
	"before" jsonb,
	"after" jsonb,
	CONSTRAINT "roster_import_rows_action" CHECK ("roster_import_rows"."action" IN ('add', 'change', 'remove'))
);
--> statement-breakpoint
CREATE TABLE "roster_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"gen" text NOT NULL,
	"file_name" text NOT NULL,
	"status" text DEFAULT 'preview' NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" integer,
	"confirmed_by" integer,
	"confirmed_at" timestamp with time zone,
	"undone_by" integer,
	"undone_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roster_imports_status" CHECK ("roster_imports"."status" IN ('preview', 'confirmed', 'discarded', 'undone'))
);
--> statement-breakpoint
CREATE TABLE "supervision_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"tax_year" integer NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"gross_receipts_cents" bigint NOT NULL,
	"expenses_cents" bigint NOT NULL,
	"submitted_by" integer,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supervision_reports_cents" CHECK ("supervision_reports"."gross_receipts_cents" >= 0 AND "supervision_reports"."expenses_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "work_item_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"item_id" integer NOT NULL,
	"author_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"account_id" integer,
	"ein" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"release_id" integer,
	"status" text DEFAULT 'open' NOT NULL,
	"assigned_to" integer,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone,
	"resolution" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_items_kind" CHECK ("work_items"."kind" IN ('left_roster', 'past_due', 'fiscal_year_mismatch', 'name_changed', 'address_changed', 'paying_not_on_roster', 'roster_no_membership', 'revoked', 'reinstated')),
	CONSTRAINT "work_items_status" CHECK ("work_items"."status" IN ('open', 'resolved'))
);
--> statement-breakpoint
ALTER TABLE "irs_releases" DROP CONSTRAINT "irs_releases_dataset";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "foundation" text;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "central_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "central_ein" text;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "accounting_period_end_month" smallint;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "subsection" text;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "uniform_purpose_statement" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "compliance_education" ADD CONSTRAINT "compliance_education_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_education" ADD CONSTRAINT "compliance_education_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gen_update_reminders" ADD CONSTRAINT "gen_update_reminders_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gen_updates" ADD CONSTRAINT "gen_updates_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gen_updates" ADD CONSTRAINT "gen_updates_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "irs_bmf_changes" ADD CONSTRAINT "irs_bmf_changes_release_id_irs_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "irs_releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "irs_bmf_changes" ADD CONSTRAINT "irs_bmf_changes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "irs_pub78" ADD CONSTRAINT "irs_pub78_release_id_irs_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "irs_releases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_import_rows" ADD CONSTRAINT "roster_import_rows_import_id_roster_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "roster_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_import_rows" ADD CONSTRAINT "roster_import_rows_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_imports" ADD CONSTRAINT "roster_imports_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_imports" ADD CONSTRAINT "roster_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_imports" ADD CONSTRAINT "roster_imports_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_imports" ADD CONSTRAINT "roster_imports_undone_by_users_id_fk" FOREIGN KEY ("undone_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supervision_reports" ADD CONSTRAINT "supervision_reports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supervision_reports" ADD CONSTRAINT "supervision_reports_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_item_notes" ADD CONSTRAINT "work_item_notes_item_id_work_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "work_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_item_notes" ADD CONSTRAINT "work_item_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_items" ADD CONSTRAINT "work_items_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_items" ADD CONSTRAINT "work_items_release_id_irs_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "irs_releases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_items" ADD CONSTRAINT "work_items_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_items" ADD CONSTRAINT "work_items_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_education_group_year" ON "compliance_education" USING btree ("group_id","year");--> statement-breakpoint
CREATE UNIQUE INDEX "gen_update_reminders_group_period_tier" ON "gen_update_reminders" USING btree ("group_id","period_end","tier");--> statement-breakpoint
CREATE UNIQUE INDEX "gen_updates_group_period" ON "gen_updates" USING btree ("group_id","period_end");--> statement-breakpoint
CREATE INDEX "irs_bmf_changes_release" ON "irs_bmf_changes" USING btree ("release_id");--> statement-breakpoint
CREATE INDEX "roster_import_rows_import" ON "roster_import_rows" USING btree ("import_id","action","id");--> statement-breakpoint
CREATE INDEX "roster_imports_group_created" ON "roster_imports" USING btree ("group_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "supervision_reports_account_year" ON "supervision_reports" USING btree ("account_id","tax_year");--> statement-breakpoint
CREATE INDEX "work_item_notes_item" ON "work_item_notes" USING btree ("item_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "work_items_key_unique" ON "work_items" USING btree ("key");--> statement-breakpoint
CREATE INDEX "work_items_status_created" ON "work_items" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "work_items_kind_status" ON "work_items" USING btree ("kind","status","created_at","id");--> statement-breakpoint
CREATE INDEX "work_items_account" ON "work_items" USING btree ("account_id");--> statement-breakpoint
ALTER TABLE "irs_releases" ADD CONSTRAINT "irs_releases_dataset" CHECK ("irs_releases"."dataset" IN ('bmf', 'epostcard', 'revocations', 'pub78'));