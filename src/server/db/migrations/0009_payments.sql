CREATE TABLE "payment_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_invoices_amount" CHECK ("payment_invoices"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"user_id" integer,
	"method" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount_cents" integer NOT NULL,
	"discount_id" integer,
	"discount_reservation_id" integer,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"invoice_ids" integer[] NOT NULL,
	"idempotency_key" text NOT NULL,
	"gateway_trans_id" text,
	"auth_code" text,
	"account_last4" text,
	"account_type" text,
	"gateway_code" text,
	"gateway_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payments_method" CHECK ("payments"."method" IN ('card', 'bank', 'paypal', 'zero')),
	CONSTRAINT "payments_status" CHECK ("payments"."status" IN ('pending', 'paid', 'held', 'declined', 'failed')),
	CONSTRAINT "payments_amounts" CHECK ("payments"."amount_cents" >= 0 AND "payments"."discount_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD CONSTRAINT "payment_invoices_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_invoices" ADD CONSTRAINT "payment_invoices_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_discount_id_discounts_id_fk" FOREIGN KEY ("discount_id") REFERENCES "discounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_discount_reservation_id_discount_reservations_id_fk" FOREIGN KEY ("discount_reservation_id") REFERENCES "discount_reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_invoices_payment_invoice_unique" ON "payment_invoices" USING btree ("payment_id","invoice_id");--> statement-breakpoint
CREATE INDEX "payment_invoices_invoice" ON "payment_invoices" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key_unique" ON "payments" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "payments_account_created" ON "payments" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_status_created" ON "payments" USING btree ("status","created_at");