CREATE TABLE "gateway_discrepancies" (
	"id" serial PRIMARY KEY NOT NULL,
	"trans_id" text NOT NULL,
	"trans_ref_id" text DEFAULT '' NOT NULL,
	"payment_id" integer,
	"amount_cents" integer NOT NULL,
	"transaction_status" text NOT NULL,
	"account_type" text DEFAULT '' NOT NULL,
	"account_last4" text DEFAULT '' NOT NULL,
	"invoice_number" text DEFAULT '' NOT NULL,
	"submitted_at" timestamp with time zone,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" integer,
	"resolution" text
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"gateway_trans_id" text,
	"gateway_code" text,
	"gateway_message" text,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payment_refunds_amount" CHECK ("payment_refunds"."amount_cents" > 0),
	CONSTRAINT "payment_refunds_status" CHECK ("payment_refunds"."status" IN ('pending', 'refunded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_status";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "held_by_payment_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gateway_discrepancies" ADD CONSTRAINT "gateway_discrepancies_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_discrepancies" ADD CONSTRAINT "gateway_discrepancies_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gateway_discrepancies_trans_unique" ON "gateway_discrepancies" USING btree ("trans_id");--> statement-breakpoint
CREATE INDEX "gateway_discrepancies_open" ON "gateway_discrepancies" USING btree ("found_at") WHERE "gateway_discrepancies"."resolved_at" IS NULL;--> statement-breakpoint
CREATE INDEX "payment_refunds_payment" ON "payment_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_one_pending" ON "payment_refunds" USING btree ("payment_id") WHERE "payment_refunds"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_held_by_payment_id_payments_id_fk" FOREIGN KEY ("held_by_payment_id") REFERENCES "payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_held_by" ON "invoices" USING btree ("held_by_payment_id") WHERE "invoices"."held_by_payment_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "payments_gateway_trans_id" ON "payments" USING btree ("gateway_trans_id");--> statement-breakpoint
CREATE INDEX "payments_review" ON "payments" USING btree ("created_at") WHERE "payments"."review_reason" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded" CHECK ("payments"."refunded_cents" >= 0 AND "payments"."refunded_cents" <= "payments"."amount_cents");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status" CHECK ("payments"."status" IN ('awaiting_consent', 'cancelled', 'pending', 'paid', 'held', 'declined', 'failed', 'voided', 'refunded'));