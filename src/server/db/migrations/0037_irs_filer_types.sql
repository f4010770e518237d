CREATE TABLE "filing_extensions" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"period_end" text NOT NULL,
	"form" text DEFAULT '8868' NOT NULL,
	"return_form" text NOT NULL,
	"filed_on" date NOT NULL,
	"extended_due" date NOT NULL,
	"recorded_as" text NOT NULL,
	"recorded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "filing_extensions_period_end" CHECK ("filing_extensions"."period_end" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "filing_extensions_form" CHECK ("filing_extensions"."form" IN ('8868')),
	CONSTRAINT "filing_extensions_return_form" CHECK ("filing_extensions"."return_form" IN ('990', '990-EZ', '990-PF')),
	CONSTRAINT "filing_extensions_recorded_as" CHECK ("filing_extensions"."recorded_as" IN ('account', 'staff')),
	CONSTRAINT "filing_extensions_dates" CHECK ("filing_extensions"."extended_due" > "filing_extensions"."filed_on")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "pf_filing_requirement" text;--> statement-breakpoint
ALTER TABLE "irs_releases" ADD COLUMN "released_precision" text DEFAULT 'day' NOT NULL;--> statement-breakpoint
ALTER TABLE "filing_extensions" ADD CONSTRAINT "filing_extensions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_extensions" ADD CONSTRAINT "filing_extensions_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "filing_extensions_account_period_unique" ON "filing_extensions" USING btree ("account_id","period_end");--> statement-breakpoint
ALTER TABLE "irs_releases" ADD CONSTRAINT "irs_releases_released_precision" CHECK ("irs_releases"."released_precision" IN ('day', 'month'));