DROP INDEX "accounts_name";--> statement-breakpoint
CREATE INDEX "accounts_name" ON "accounts" USING btree ("name","id","search_text");