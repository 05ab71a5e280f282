CREATE TABLE "training_checkpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"epoch" integer NOT NULL,
	"step" bigint DEFAULT 0 NOT NULL,
	"metrics" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_best" boolean DEFAULT false NOT NULL,
	"blob_key" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_events" (
	"job_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb NOT NULL,
	"name" text,
	"step" bigint,
	"epoch" integer,
	"value" double precision,
	"client_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "training_events_job_id_seq_pk" PRIMARY KEY("job_id","seq")
);
--> statement-breakpoint
CREATE TABLE "training_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"project_id" text NOT NULL,
	"project_name" text NOT NULL,
	"version_id" text,
	"name" text NOT NULL,
	"graph" jsonb NOT NULL,
	"config" jsonb NOT NULL,
	"dataset_id" text NOT NULL,
	"dataset_version_id" text NOT NULL,
	"runtime" text NOT NULL,
	"resolved_runtime" text,
	"strategy" text DEFAULT 'single' NOT NULL,
	"recipe_id" text,
	"base_model_id" text,
	"state" text DEFAULT 'queued' NOT NULL,
	"status_history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reason" text,
	"progress" jsonb,
	"metrics" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"preprocessing" jsonb,
	"runner_task_id" text,
	"dispatched" boolean DEFAULT false NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"last_event_id" bigint DEFAULT 0 NOT NULL,
	"compute_seconds" double precision DEFAULT 0 NOT NULL,
	"credits_charged_milli" bigint DEFAULT 0 NOT NULL,
	"artifact_format" text,
	"artifact_files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"artifact_manifest" jsonb,
	"restart_count" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "training_jobs_state_check" CHECK ("training_jobs"."state" in ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'timed_out'))
);
--> statement-breakpoint
CREATE TABLE "training_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "training_checkpoints" ADD CONSTRAINT "training_checkpoints_job_id_training_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."training_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_events" ADD CONSTRAINT "training_events_job_id_training_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."training_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_jobs" ADD CONSTRAINT "training_jobs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_tokens" ADD CONSTRAINT "training_tokens_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "training_checkpoints_job_epoch_idx" ON "training_checkpoints" USING btree ("job_id","epoch");--> statement-breakpoint
CREATE INDEX "training_events_series_idx" ON "training_events" USING btree ("job_id","kind","name","step");--> statement-breakpoint
CREATE UNIQUE INDEX "training_events_client_id_idx" ON "training_events" USING btree ("job_id","client_id");--> statement-breakpoint
CREATE INDEX "training_jobs_owner_created_idx" ON "training_jobs" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "training_jobs_owner_state_idx" ON "training_jobs" USING btree ("owner_id","state");--> statement-breakpoint
CREATE INDEX "training_jobs_dataset_idx" ON "training_jobs" USING btree ("dataset_id");--> statement-breakpoint
CREATE INDEX "training_tokens_subject_idx" ON "training_tokens" USING btree ("subject_id");