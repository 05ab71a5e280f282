CREATE TABLE "hub_model_files" (
	"id" text PRIMARY KEY NOT NULL,
	"model_id" text NOT NULL,
	"path" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"blob_key" text NOT NULL,
	"content_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_model_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"model_id" text NOT NULL,
	"version" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"files" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_models" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"task" text,
	"framework" text,
	"license" text,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"category" text,
	"card" text DEFAULT '' NOT NULL,
	"visibility" text DEFAULT 'public' NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"architecture" jsonb,
	"training_config" jsonb,
	"evaluation" jsonb,
	"parent_id" text,
	"base_model" text,
	"source_job_id" text,
	"downloads" bigint DEFAULT 0 NOT NULL,
	"stars" integer DEFAULT 0 NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, "name"), 'A')
 || setweight(to_tsvector('english'::regconfig, "tags"), 'B')
 || setweight(to_tsvector('english'::regconfig, coalesce("task", '')), 'B')
 || setweight(to_tsvector('english'::regconfig, "description"), 'C')
 || setweight(to_tsvector('english'::regconfig, "card"), 'D')) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hub_models_visibility_check" CHECK ("hub_models"."visibility" in ('public', 'private')),
	CONSTRAINT "hub_models_state_check" CHECK ("hub_models"."state" in ('draft', 'published'))
);
--> statement-breakpoint
CREATE TABLE "hub_reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"model_id" text NOT NULL,
	"user_id" text NOT NULL,
	"rating" integer NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"evaluation_id" text,
	"evaluation_metrics" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hub_reviews_rating_check" CHECK ("hub_reviews"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "hub_stars" (
	"user_id" text NOT NULL,
	"model_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hub_stars_user_id_model_id_pk" PRIMARY KEY("user_id","model_id")
);
--> statement-breakpoint
ALTER TABLE "hub_model_files" ADD CONSTRAINT "hub_model_files_model_id_hub_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."hub_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_model_versions" ADD CONSTRAINT "hub_model_versions_model_id_hub_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."hub_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_models" ADD CONSTRAINT "hub_models_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_models" ADD CONSTRAINT "hub_models_parent_id_hub_models_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."hub_models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_reviews" ADD CONSTRAINT "hub_reviews_model_id_hub_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."hub_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_reviews" ADD CONSTRAINT "hub_reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_stars" ADD CONSTRAINT "hub_stars_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_stars" ADD CONSTRAINT "hub_stars_model_id_hub_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."hub_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hub_model_files_path_idx" ON "hub_model_files" USING btree ("model_id","path");--> statement-breakpoint
CREATE INDEX "hub_model_files_blob_idx" ON "hub_model_files" USING btree ("blob_key");--> statement-breakpoint
CREATE UNIQUE INDEX "hub_model_versions_version_idx" ON "hub_model_versions" USING btree ("model_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "hub_models_owner_slug_idx" ON "hub_models" USING btree ("owner_id","slug");--> statement-breakpoint
CREATE INDEX "hub_models_search_idx" ON "hub_models" USING gin ("search");--> statement-breakpoint
CREATE INDEX "hub_models_tags_idx" ON "hub_models" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "hub_models_listed_updated_idx" ON "hub_models" USING btree ("state","visibility","updated_at");--> statement-breakpoint
CREATE INDEX "hub_models_listed_downloads_idx" ON "hub_models" USING btree ("state","visibility","downloads");--> statement-breakpoint
CREATE INDEX "hub_models_listed_stars_idx" ON "hub_models" USING btree ("state","visibility","stars");--> statement-breakpoint
CREATE INDEX "hub_models_parent_idx" ON "hub_models" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hub_reviews_model_user_idx" ON "hub_reviews" USING btree ("model_id","user_id");--> statement-breakpoint
CREATE INDEX "hub_reviews_model_created_idx" ON "hub_reviews" USING btree ("model_id","created_at");--> statement-breakpoint
CREATE INDEX "hub_stars_model_created_idx" ON "hub_stars" USING btree ("model_id","created_at");--> statement-breakpoint
CREATE INDEX "hub_stars_created_idx" ON "hub_stars" USING btree ("created_at");