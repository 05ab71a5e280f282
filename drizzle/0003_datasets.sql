CREATE TABLE "dataset_download_nonces" (
	"nonce_hash" text PRIMARY KEY NOT NULL,
	"dataset_id" text NOT NULL,
	"version_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dataset_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"dataset_id" text NOT NULL,
	"number" integer NOT NULL,
	"content_hash" text NOT NULL,
	"blob_key" text NOT NULL,
	"file_name" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"row_count" bigint,
	"schema" jsonb NOT NULL,
	"profile" jsonb NOT NULL,
	"pii_report" jsonb,
	"splits" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "datasets" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"format" text NOT NULL,
	"task" text,
	"roles" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"current_version_id" text,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"last_version_number" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "datasets_visibility_check" CHECK ("datasets"."visibility" in ('private', 'public'))
);
--> statement-breakpoint
CREATE TABLE "project_datasets" (
	"project_id" text NOT NULL,
	"dataset_ref" text NOT NULL,
	"dataset_id" text,
	"builtin_id" text,
	"linked_by" text,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_datasets_project_id_dataset_ref_pk" PRIMARY KEY("project_id","dataset_ref"),
	CONSTRAINT "project_datasets_one_ref_check" CHECK (("project_datasets"."dataset_id" is not null and "project_datasets"."builtin_id" is null and "project_datasets"."dataset_ref" = "project_datasets"."dataset_id")
        or ("project_datasets"."dataset_id" is null and "project_datasets"."builtin_id" is not null and "project_datasets"."dataset_ref" = "project_datasets"."builtin_id"))
);
--> statement-breakpoint
ALTER TABLE "dataset_versions" ADD CONSTRAINT "dataset_versions_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_versions" ADD CONSTRAINT "dataset_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasets" ADD CONSTRAINT "datasets_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_datasets" ADD CONSTRAINT "project_datasets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_datasets" ADD CONSTRAINT "project_datasets_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_datasets" ADD CONSTRAINT "project_datasets_linked_by_users_id_fk" FOREIGN KEY ("linked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dataset_download_nonces_expires_idx" ON "dataset_download_nonces" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "dataset_versions_number_idx" ON "dataset_versions" USING btree ("dataset_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "dataset_versions_hash_idx" ON "dataset_versions" USING btree ("dataset_id","content_hash");--> statement-breakpoint
CREATE INDEX "datasets_owner_updated_idx" ON "datasets" USING btree ("owner_id","updated_at");--> statement-breakpoint
CREATE INDEX "datasets_visibility_idx" ON "datasets" USING btree ("visibility");--> statement-breakpoint
CREATE INDEX "project_datasets_dataset_idx" ON "project_datasets" USING btree ("dataset_id");