CREATE TABLE "audit_calls" (
	"workload_id" text NOT NULL,
	"idx" integer NOT NULL,
	"input" jsonb NOT NULL,
	"input_text" text NOT NULL,
	"output" text NOT NULL,
	"latency_ms" real,
	"cost" real,
	"called_at" timestamp with time zone,
	"holdout" boolean NOT NULL,
	CONSTRAINT "audit_calls_workload_id_idx_pk" PRIMARY KEY("workload_id","idx")
);
--> statement-breakpoint
CREATE TABLE "audit_candidates" (
	"id" text PRIMARY KEY NOT NULL,
	"audit_id" text NOT NULL,
	"workload_id" text NOT NULL,
	"recipe_id" text NOT NULL,
	"base_model_id" text NOT NULL,
	"run_id" text,
	"project_id" text,
	"deployment_id" text,
	"evaluation" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_steps" (
	"id" text PRIMARY KEY NOT NULL,
	"audit_id" text NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_workloads" (
	"id" text PRIMARY KEY NOT NULL,
	"audit_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"task" text NOT NULL,
	"model" text NOT NULL,
	"labels" jsonb,
	"stats" jsonb NOT NULL,
	"dataset_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audits" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"publish_inputs" boolean DEFAULT false NOT NULL,
	"summary" jsonb,
	"share_token_hash" text,
	"shared_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_calls" ADD CONSTRAINT "audit_calls_workload_id_audit_workloads_id_fk" FOREIGN KEY ("workload_id") REFERENCES "public"."audit_workloads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_candidates" ADD CONSTRAINT "audit_candidates_audit_id_audits_id_fk" FOREIGN KEY ("audit_id") REFERENCES "public"."audits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_candidates" ADD CONSTRAINT "audit_candidates_workload_id_audit_workloads_id_fk" FOREIGN KEY ("workload_id") REFERENCES "public"."audit_workloads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_steps" ADD CONSTRAINT "audit_steps_audit_id_audits_id_fk" FOREIGN KEY ("audit_id") REFERENCES "public"."audits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_workloads" ADD CONSTRAINT "audit_workloads_audit_id_audits_id_fk" FOREIGN KEY ("audit_id") REFERENCES "public"."audits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audits" ADD CONSTRAINT "audits_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_candidates_audit_idx" ON "audit_candidates" USING btree ("audit_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_steps_audit_idx" ON "audit_steps" USING btree ("audit_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_workloads_audit_idx" ON "audit_workloads" USING btree ("audit_id","position");--> statement-breakpoint
CREATE INDEX "audits_owner_created_idx" ON "audits" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "audits_share_token_idx" ON "audits" USING btree ("share_token_hash") WHERE "audits"."share_token_hash" is not null;