ALTER TABLE "deployments" ADD COLUMN "follows_model_id" text;--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "follows_alias" text;