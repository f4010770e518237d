CREATE TABLE "bylaws" (
	"id" serial PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"variant" text NOT NULL,
	"answers" jsonb NOT NULL,
	"session_hash" text NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bylaws" ADD CONSTRAINT "bylaws_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bylaws_hash_unique" ON "bylaws" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "bylaws_user" ON "bylaws" USING btree ("user_id");