CREATE TABLE "deployment_revisions" (
	"id" text PRIMARY KEY NOT NULL,
	"deployment_id" text NOT NULL,
	"number" integer NOT NULL,
	"source" text DEFAULT 'job' NOT NULL,
	"job_id" text,
	"artifact_format" text NOT NULL,
	"artifact_files" jsonb NOT NULL,
	"artifact_manifest" jsonb NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployments" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"state" text DEFAULT 'deploying' NOT NULL,
	"current_revision_id" text,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deployments_state_check" CHECK ("deployments"."state" in ('deploying', 'ready', 'failed', 'paused'))
);
--> statement-breakpoint
ALTER TABLE "deployment_revisions" ADD CONSTRAINT "deployment_revisions_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deployment_revisions_number_idx" ON "deployment_revisions" USING btree ("deployment_id","number");--> statement-breakpoint
CREATE INDEX "deployments_owner_created_idx" ON "deployments" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deployments_key_hash_idx" ON "deployments" USING btree ("key_hash");