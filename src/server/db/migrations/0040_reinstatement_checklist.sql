CREATE TABLE "reinstatement_checklist" (
	"account_id" integer NOT NULL,
	"revoked_on" date NOT NULL,
	"item_key" text NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_by" integer,
	CONSTRAINT "reinstatement_checklist_account_id_revoked_on_item_key_pk" PRIMARY KEY("account_id","revoked_on","item_key"),
	CONSTRAINT "reinstatement_checklist_item_key" CHECK ("reinstatement_checklist"."item_key" ~ '^s[4-7]_[a-z0-9_]+$')
);
--> statement-breakpoint
ALTER TABLE "reinstatement_checklist" ADD CONSTRAINT "reinstatement_checklist_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reinstatement_checklist" ADD CONSTRAINT "reinstatement_checklist_checked_by_users_id_fk" FOREIGN KEY ("checked_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;