DROP INDEX "audit_log_account";--> statement-breakpoint
DROP INDEX "audit_log_actor";--> statement-breakpoint
CREATE INDEX "accounts_name" ON "accounts" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "audit_log_action" ON "audit_log" USING btree (("action" COLLATE "C"),"id");--> statement-breakpoint
CREATE INDEX "audit_log_account" ON "audit_log" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor" ON "audit_log" USING btree ("actor_user_id","id");