CREATE TABLE "irs_organizations" (
	"ein" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"sort_name" text DEFAULT '' NOT NULL,
	"street" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"gen" text,
	"subsection" text,
	"affiliation" text,
	"classification" text,
	"ruling" text,
	"deductibility" text,
	"foundation" text,
	"activity" text,
	"organization" text,
	"irs_status" text,
	"tax_period" text,
	"asset_code" text,
	"income_code" text,
	"filing_requirement" text,
	"pf_filing_requirement" text,
	"fiscal_year_end_month" smallint,
	"asset_amount" bigint,
	"income_amount" bigint,
	"revenue_amount" bigint,
	"ntee_code" text,
	"search_text" text DEFAULT '' NOT NULL,
	"release_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "irs_organizations" ADD CONSTRAINT "irs_organizations_release_id_irs_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "irs_releases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "irs_organizations_gen" ON "irs_organizations" USING btree ("gen");--> statement-breakpoint
CREATE INDEX "irs_organizations_search_trgm" ON "irs_organizations" USING gin ("search_text" gin_trgm_ops);