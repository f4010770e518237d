DROP INDEX "accounts_search_trgm";--> statement-breakpoint
DROP INDEX "accounts_listed_name";--> statement-breakpoint
CREATE INDEX "accounts_search_trgm" ON "accounts" USING gin ("search_text" gin_trgm_ops) WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "accounts_listed_name" ON "accounts" USING btree ("is_listed","name","id","search_text","city","state");