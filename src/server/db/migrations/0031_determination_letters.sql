CREATE TABLE "determination_letters" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"file_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"uploaded_by" integer,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"letter_date" date,
	"return_reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "determination_letters_status" CHECK ("determination_letters"."status" IN ('pending', 'accepted', 'returned'))
);
--> statement-breakpoint
ALTER TABLE "work_items" DROP CONSTRAINT "work_items_kind";--> statement-breakpoint
ALTER TABLE "determination_letters" ADD CONSTRAINT "determination_letters_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "determination_letters" ADD CONSTRAINT "determination_letters_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "determination_letters" ADD CONSTRAINT "determination_letters_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "determination_letters" ADD CONSTRAINT "determination_letters_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "determination_letters_one_pending" ON "determination_letters" USING btree ("account_id") WHERE "determination_letters"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "determination_letters_account" ON "determination_letters" USING btree ("account_id","created_at");--> statement-breakpoint
ALTER TABLE "work_items" ADD CONSTRAINT "work_items_kind" CHECK ("work_items"."kind" IN ('left_roster', 'past_due', 'fiscal_year_mismatch', 'name_changed', 'address_changed', 'paying_not_on_roster', 'roster_no_membership', 'revoked', 'reinstated', 'determination_letter'));--> statement-breakpoint
INSERT INTO "determination_letters" ("account_id", "file_id", "status", "uploaded_by", "created_at")
SELECT a."id", f."id", 'pending', f."uploaded_by", f."created_at"
FROM "accounts" a JOIN "files" f ON f."id"::text = a."data"->>'account___determination_letter_file_id'
WHERE a."data"->>'account___has_501c' = '2';--> statement-breakpoint
INSERT INTO "work_items" ("key", "kind", "account_id", "ein", "details", "created_at", "updated_at")
SELECT 'determination_letter:' || l."id", 'determination_letter', l."account_id", a."ein",
  jsonb_build_object('letter_id', l."id", 'form', coalesce(a."data"->>'account___exemption_form', ''), 'filed_on', coalesce(a."data"->>'account___exemption_filed_on', ''), 'uploaded_on', to_char(l."created_at", 'YYYY-MM-DD')),
  l."created_at", l."created_at"
FROM "determination_letters" l JOIN "accounts" a ON a."id" = l."account_id"
ON CONFLICT ("key") DO NOTHING;
