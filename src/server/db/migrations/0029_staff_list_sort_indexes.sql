CREATE INDEX "accounts_customer_ein" ON "accounts" USING btree ("ein","id") WHERE "accounts"."is_listed" = false AND "accounts"."source" <> 'irs-bmf';--> statement-breakpoint
CREATE INDEX "accounts_customer_level" ON "accounts" USING btree ("level_id","id") WHERE "accounts"."is_listed" = false AND "accounts"."source" <> 'irs-bmf';--> statement-breakpoint
CREATE INDEX "contest_entries_contest_type" ON "contest_entries" USING btree ("contest","type","id");--> statement-breakpoint
CREATE INDEX "contest_entries_contest_counts" ON "contest_entries" USING btree ("contest","counts","id");--> statement-breakpoint
CREATE INDEX "inquiries_name_id" ON "inquiries" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "inquiries_kind_id" ON "inquiries" USING btree ("kind","id");--> statement-breakpoint
CREATE INDEX "inquiries_organization_id" ON "inquiries" USING btree ("organization","id");--> statement-breakpoint
CREATE INDEX "inquiries_handled_id" ON "inquiries" USING btree ("is_handled","id");--> statement-breakpoint
CREATE INDEX "mail_outbox_to_id" ON "mail_outbox" USING btree ("to_address","id");--> statement-breakpoint
CREATE INDEX "mail_outbox_subject_id" ON "mail_outbox" USING btree ("subject","id");--> statement-breakpoint
CREATE INDEX "mail_outbox_status_id" ON "mail_outbox" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "payments_method_id" ON "payments" USING btree ("method","id");--> statement-breakpoint
CREATE INDEX "payments_status_id" ON "payments" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "roster_imports_created_id" ON "roster_imports" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "roster_imports_gen_id" ON "roster_imports" USING btree ("gen","id");--> statement-breakpoint
CREATE INDEX "roster_imports_file_id" ON "roster_imports" USING btree ("file_name","id");--> statement-breakpoint
CREATE INDEX "roster_imports_status_id" ON "roster_imports" USING btree ("status","id");