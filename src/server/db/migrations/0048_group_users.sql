CREATE TABLE "group_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"invited_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_users_role_known" CHECK ("group_users"."role" IN ('manager', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "irs_bulk_checks" ADD COLUMN "group_id" integer;--> statement-breakpoint
ALTER TABLE "group_users" ADD CONSTRAINT "group_users_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_users" ADD CONSTRAINT "group_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_users" ADD CONSTRAINT "group_users_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "group_users_group_user_unique" ON "group_users" USING btree ("group_id","user_id");--> statement-breakpoint
CREATE INDEX "group_users_user" ON "group_users" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "irs_bulk_checks" ADD CONSTRAINT "irs_bulk_checks_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "irs_bulk_checks_group_idx" ON "irs_bulk_checks" USING btree ("group_id","created_at");