CREATE TABLE "model_aliases" (
	"model_id" text NOT NULL,
	"alias" text NOT NULL,
	"version_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_aliases_model_id_alias_pk" PRIMARY KEY("model_id","alias")
);
--> statement-breakpoint
CREATE TABLE "model_artifacts" (
	"id" text PRIMARY KEY NOT NULL,
	"version_id" text NOT NULL,
	"name" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"content_type" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"blob_key" text,
	"received_size" bigint,
	"received_sha256" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_artifacts_state_check" CHECK ("model_artifacts"."state" in ('pending', 'complete'))
);
--> statement-breakpoint
CREATE TABLE "model_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"model_id" text NOT NULL,
	"number" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"source" text NOT NULL,
	"job_id" text,
	"task_contract_key" text,
	"task_contract_version" integer,
	"description" text DEFAULT '' NOT NULL,
	"metrics" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"artifact_format" text,
	"artifact_manifest" jsonb,
	"finalized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_versions_state_check" CHECK ("model_versions"."state" in ('pending', 'ready')),
	CONSTRAINT "model_versions_source_check" CHECK ("model_versions"."source" in ('job', 'run', 'bare'))
);
--> statement-breakpoint
CREATE TABLE "registered_models" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"task" text,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_version_number" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "model_aliases" ADD CONSTRAINT "model_aliases_model_id_registered_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."registered_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_aliases" ADD CONSTRAINT "model_aliases_version_id_model_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."model_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_artifacts" ADD CONSTRAINT "model_artifacts_version_id_model_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."model_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_versions" ADD CONSTRAINT "model_versions_model_id_registered_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."registered_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registered_models" ADD CONSTRAINT "registered_models_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_aliases_version_idx" ON "model_aliases" USING btree ("version_id");--> statement-breakpoint
CREATE UNIQUE INDEX "model_artifacts_version_name_idx" ON "model_artifacts" USING btree ("version_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "model_versions_model_number_idx" ON "model_versions" USING btree ("model_id","number");--> statement-breakpoint
CREATE INDEX "model_versions_job_idx" ON "model_versions" USING btree ("job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "registered_models_owner_name_idx" ON "registered_models" USING btree ("owner_id","name");--> statement-breakpoint
CREATE INDEX "registered_models_owner_updated_idx" ON "registered_models" USING btree ("owner_id","updated_at");