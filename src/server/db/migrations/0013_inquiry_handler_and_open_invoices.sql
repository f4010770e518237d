ALTER TABLE "inquiries" DROP CONSTRAINT "inquiries_handled_by_users_id_fk";
--> statement-breakpoint
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_handled_by_users_id_fk" FOREIGN KEY ("handled_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_open" ON "invoices" USING btree ("document_at","id") WHERE "invoices"."balance_cents" > 0;