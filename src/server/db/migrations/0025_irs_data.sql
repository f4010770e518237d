CREATE TABLE "irs_epostcards" (
	"ein" text NOT NULL,
	"tax_year" integer NOT NULL,
	"period_begin" date NOT NULL,
	"period_end" date NOT NULL,
	"terminated" boolean NOT NULL,
	"release_id" integer NOT NULL,
	CONSTRAINT "irs_epostcards_ein_tax_year_pk" PRIMARY KEY("ein","tax_year")
);
--> statement-breakpoint
CREATE TABLE "irs_releases" (
	"id" serial PRIMARY KEY NOT NULL,
	"dataset" text NOT NULL,
	"file_name" text NOT NULL,
	"released_on" date NOT NULL,
	"row_count" integer NOT NULL,
	"loaded_count" integer NOT NULL,
	"sha256" text NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "irs_releases_dataset" CHECK ("irs_releases"."dataset" IN ('bmf', 'epostcard', 'revocations'))
);
--> statement-breakpoint
CREATE TABLE "irs_revocations" (
	"ein" text NOT NULL,
	"legal_name" text NOT NULL,
	"revoked_on" date NOT NULL,
	"posted_on" date,
	"reinstated_on" date,
	"release_id" integer NOT NULL,
	CONSTRAINT "irs_revocations_ein_revoked_on_pk" PRIMARY KEY("ein","revoked_on")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "bmf_release_id" integer;--> statement-breakpoint
ALTER TABLE "irs_epostcards" ADD CONSTRAINT "irs_epostcards_release_id_irs_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "irs_releases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "irs_revocations" ADD CONSTRAINT "irs_revocations_release_id_irs_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "irs_releases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "irs_releases_dataset_sha256" ON "irs_releases" USING btree ("dataset","sha256");--> statement-breakpoint
CREATE INDEX "irs_releases_dataset_released" ON "irs_releases" USING btree ("dataset","released_on");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_bmf_release_id_irs_releases_id_fk" FOREIGN KEY ("bmf_release_id") REFERENCES "irs_releases"("id") ON DELETE no action ON UPDATE no action;