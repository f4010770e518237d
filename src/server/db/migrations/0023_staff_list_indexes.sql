CREATE INDEX "accounts_customer_name" ON "accounts" USING btree ("name","id") WHERE "accounts"."is_listed" = false AND "accounts"."source" <> 'irs-bmf';--> statement-breakpoint
CREATE INDEX "accounts_customer_created" ON "accounts" USING btree ("created_at","id") WHERE "accounts"."is_listed" = false AND "accounts"."source" <> 'irs-bmf';--> statement-breakpoint
CREATE INDEX "accounts_customer_renewal" ON "accounts" USING btree ("renewal_due_at","id") WHERE "accounts"."is_listed" = false AND "accounts"."source" <> 'irs-bmf';--> statement-breakpoint
CREATE INDEX "accounts_imported" ON "accounts" USING btree ("id") WHERE NOT ("accounts"."is_listed" = false AND "accounts"."source" <> 'irs-bmf');--> statement-breakpoint
CREATE INDEX "accounts_email_trgm" ON "accounts" USING gin (lower("email") gin_trgm_ops) WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "audit_log_actor" ON "audit_log" USING btree ("actor_user_id");--> statement-breakpoint
CREATE INDEX "inquiries_search_trgm" ON "inquiries" USING gin (lower("name" || ' ' || "email" || ' ' || "organization") gin_trgm_ops) WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "invoices_open_balance" ON "invoices" USING btree ("balance_cents","id") WHERE "invoices"."balance_cents" > 0;--> statement-breakpoint
CREATE INDEX "mail_outbox_search_trgm" ON "mail_outbox" USING gin (lower("to_address" || ' ' || "subject") gin_trgm_ops) WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "payments_created" ON "payments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "payments_amount" ON "payments" USING btree ("amount_cents","id");--> statement-breakpoint
CREATE INDEX "users_email_trgm" ON "users" USING gin (lower("email") gin_trgm_ops) WITH (gin_pending_list_limit=256);