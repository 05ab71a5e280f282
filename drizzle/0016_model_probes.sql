CREATE TABLE "model_probes" (
	"digest" text PRIMARY KEY NOT NULL,
	"ok" boolean NOT NULL,
	"reason" text,
	"signature" jsonb,
	"peak_rss_bytes" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
