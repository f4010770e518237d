ALTER TABLE "bylaws" ADD COLUMN "application_id" integer;--> statement-breakpoint
ALTER TABLE "bylaws" ADD CONSTRAINT "bylaws_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bylaws_application_unique" ON "bylaws" USING btree ("application_id");