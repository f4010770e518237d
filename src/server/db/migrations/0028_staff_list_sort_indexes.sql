CREATE INDEX "accounts_customer_ein" ON "accounts" USING btree ("ein","id") WHERE "accounts"."is_listed" = false AND "accounts"."source" <> 'irs-bmf';--> statement-breakpoint
CREATE INDEX "accounts_customer_level" ON "accounts" USING btree ("level_id","id") WHERE "accounts"."is_listed" = false AND "accounts"."source" <> 'irs-bmf';--> statement-breakpoint
CREATE INDEX "payments_method_id" ON "payments" USING btree ("method","id");--> statement-breakpoint
CREATE INDEX "payments_status_id" ON "payments" USING btree ("status","id");