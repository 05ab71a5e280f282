CREATE TABLE "training_metric_rollups" (
	"job_id" text NOT NULL,
	"name" text NOT NULL,
	"width" integer NOT NULL,
	"bucket" bigint NOT NULL,
	"n" bigint NOT NULL,
	"first_step" bigint NOT NULL,
	"first_value" double precision NOT NULL,
	"first_epoch" integer,
	"first_at" timestamp with time zone NOT NULL,
	"last_step" bigint NOT NULL,
	"last_value" double precision NOT NULL,
	"last_epoch" integer,
	"last_at" timestamp with time zone NOT NULL,
	"min_step" bigint NOT NULL,
	"min_value" double precision NOT NULL,
	"min_epoch" integer,
	"min_at" timestamp with time zone NOT NULL,
	"max_step" bigint NOT NULL,
	"max_value" double precision NOT NULL,
	"max_epoch" integer,
	"max_at" timestamp with time zone NOT NULL,
	CONSTRAINT "training_metric_rollups_job_id_name_width_bucket_pk" PRIMARY KEY("job_id","name","width","bucket")
);
--> statement-breakpoint
ALTER TABLE "training_metric_rollups" ADD CONSTRAINT "training_metric_rollups_job_id_training_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."training_jobs"("id") ON DELETE cascade ON UPDATE no action;