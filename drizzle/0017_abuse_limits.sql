CREATE TABLE "hub_link_downloads" (
	"nonce_hash" text PRIMARY KEY NOT NULL,
	"model_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_attempts" (
	"key" text PRIMARY KEY NOT NULL,
	"attempts" integer NOT NULL,
	"last_attempt_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "hub_link_downloads" ADD CONSTRAINT "hub_link_downloads_model_id_hub_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."hub_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hub_link_downloads_expires_idx" ON "hub_link_downloads" USING btree ("expires_at");