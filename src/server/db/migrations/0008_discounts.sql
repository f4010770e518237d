CREATE TABLE "discount_reservations" (
	"id" serial PRIMARY KEY NOT NULL,
	"discount_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"reserved_by" integer,
	"reserved_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"redeemed_at" timestamp with time zone,
	"payment_ref" text,
	CONSTRAINT "discount_reservations_redeemed_with_ref" CHECK (("discount_reservations"."redeemed_at" IS NULL) = ("discount_reservations"."payment_ref" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "discounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"currency_value_cents" integer DEFAULT 0 NOT NULL,
	"multiplier" numeric(7, 6) DEFAULT 0 NOT NULL,
	"is_new_account" boolean DEFAULT false NOT NULL,
	"is_renewals" boolean DEFAULT false NOT NULL,
	"is_upgrades" boolean DEFAULT false NOT NULL,
	"is_service_fees" boolean DEFAULT false NOT NULL,
	"starts_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"max_redemptions" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discounts_code_format" CHECK ("discounts"."code" ~ '^[A-Z0-9_-]{1,64}$'),
	CONSTRAINT "discounts_amount" CHECK ("discounts"."currency_value_cents" >= 0 AND "discounts"."multiplier" >= 0 AND "discounts"."multiplier" <= 1 AND ("discounts"."currency_value_cents" = 0 OR "discounts"."multiplier" = 0)),
	CONSTRAINT "discounts_max_redemptions" CHECK ("discounts"."max_redemptions" IS NULL OR "discounts"."max_redemptions" > 0)
);
--> statement-breakpoint
ALTER TABLE "discount_reservations" ADD CONSTRAINT "discount_reservations_discount_id_discounts_id_fk" FOREIGN KEY ("discount_id") REFERENCES "discounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_reservations" ADD CONSTRAINT "discount_reservations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_reservations" ADD CONSTRAINT "discount_reservations_reserved_by_users_id_fk" FOREIGN KEY ("reserved_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_reservations_open_unique" ON "discount_reservations" USING btree ("account_id","discount_id") WHERE redeemed_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_reservations_redeemed_unique" ON "discount_reservations" USING btree ("account_id","discount_id") WHERE redeemed_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "discount_reservations_discount" ON "discount_reservations" USING btree ("discount_id","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "discounts_code_unique" ON "discounts" USING btree ("code");