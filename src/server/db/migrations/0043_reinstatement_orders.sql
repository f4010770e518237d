CREATE TABLE "reinstatement_orders" (
	"account_id" integer NOT NULL,
	"revoked_on" date NOT NULL,
	"invoice_id" integer NOT NULL,
	"ordered_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reinstatement_orders_account_id_revoked_on_pk" PRIMARY KEY("account_id","revoked_on")
);
--> statement-breakpoint
ALTER TABLE "work_items" DROP CONSTRAINT "work_items_kind";--> statement-breakpoint
ALTER TABLE "reinstatement_orders" ADD CONSTRAINT "reinstatement_orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reinstatement_orders" ADD CONSTRAINT "reinstatement_orders_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reinstatement_orders" ADD CONSTRAINT "reinstatement_orders_ordered_by_users_id_fk" FOREIGN KEY ("ordered_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reinstatement_orders_invoice" ON "reinstatement_orders" USING btree ("invoice_id");--> statement-breakpoint
ALTER TABLE "work_items" ADD CONSTRAINT "work_items_kind" CHECK ("work_items"."kind" IN ('left_roster', 'past_due', 'fiscal_year_mismatch', 'name_changed', 'address_changed', 'paying_not_on_roster', 'roster_no_membership', 'revoked', 'reinstated', 'determination_letter', 'link_request', 'reinstatement_order'));