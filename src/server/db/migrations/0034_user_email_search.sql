CREATE TABLE "user_email_search" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"email" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_email_search" ADD CONSTRAINT "user_email_search_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_email_search_trgm" ON "user_email_search" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
-- The copy follows the users table: written with the user, changed with the e-mail; removed with the
-- user through the foreign key.
CREATE OR REPLACE FUNCTION users_copy_email_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_email_search (user_id, email) VALUES (NEW.id, lower(NEW.email))
    ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_email_search AFTER INSERT OR UPDATE OF email ON users
  FOR EACH ROW EXECUTE FUNCTION users_copy_email_search();
--> statement-breakpoint
INSERT INTO user_email_search (user_id, email) SELECT id, lower(email) FROM users;
