ALTER TABLE "irs_releases" ADD COLUMN "source_url" text;--> statement-breakpoint
ALTER TABLE "irs_releases" ADD COLUMN "source_etag" text;--> statement-breakpoint
ALTER TABLE "irs_releases" ADD COLUMN "source_last_modified" timestamp with time zone;