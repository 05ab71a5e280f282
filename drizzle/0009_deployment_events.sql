CREATE TABLE "deployment_events" (
	"deployment_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"route" text,
	"status" integer,
	"latency_ms" real,
	"data" jsonb NOT NULL,
	CONSTRAINT "deployment_events_deployment_id_seq_pk" PRIMARY KEY("deployment_id","seq")
);
--> statement-breakpoint
ALTER TABLE "deployment_revisions" ADD COLUMN "model_version_id" text;--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "last_event_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deployment_events" ADD CONSTRAINT "deployment_events_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_events_kind_at_idx" ON "deployment_events" USING btree ("deployment_id","kind","at");