CREATE TABLE "renewals" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"current_level_id" integer NOT NULL,
	"new_level_id" integer NOT NULL,
	"is_upgrade_selected" boolean NOT NULL,
	"is_incorporation_selected" boolean NOT NULL,
	"bonus_cents" integer DEFAULT 0 NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	CONSTRAINT "renewals_bonus" CHECK ("renewals"."bonus_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "renewals" ADD CONSTRAINT "renewals_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewals" ADD CONSTRAINT "renewals_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewals" ADD CONSTRAINT "renewals_current_level_id_levels_id_fk" FOREIGN KEY ("current_level_id") REFERENCES "levels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewals" ADD CONSTRAINT "renewals_new_level_id_levels_id_fk" FOREIGN KEY ("new_level_id") REFERENCES "levels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewals" ADD CONSTRAINT "renewals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "renewals_invoice_unique" ON "renewals" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "renewals_account" ON "renewals" USING btree ("account_id","created_at");