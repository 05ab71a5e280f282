CREATE TABLE "training_evaluations" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"job_id" text NOT NULL,
	"dataset_id" text NOT NULL,
	"dataset_version_id" text NOT NULL,
	"split" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"reason" text,
	"runner_task_id" text,
	"metrics" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result" jsonb,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "training_evaluations_state_check" CHECK ("training_evaluations"."state" in ('queued', 'running', 'succeeded', 'failed')),
	CONSTRAINT "training_evaluations_split_check" CHECK ("training_evaluations"."split" in ('train', 'validation', 'test', 'all'))
);
--> statement-breakpoint
ALTER TABLE "training_evaluations" ADD CONSTRAINT "training_evaluations_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_evaluations" ADD CONSTRAINT "training_evaluations_job_id_training_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."training_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "training_evaluations_job_created_idx" ON "training_evaluations" USING btree ("job_id","created_at");--> statement-breakpoint
CREATE INDEX "training_evaluations_owner_idx" ON "training_evaluations" USING btree ("owner_id");