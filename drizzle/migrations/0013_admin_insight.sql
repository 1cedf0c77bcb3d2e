-- Trigram indexes of the admin users search need pg_trgm (shipped with PostgreSQL contrib).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "voided_votes" (
	"id" bigint PRIMARY KEY NOT NULL,
	"poll_id" uuid NOT NULL,
	"option_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"points" integer NOT NULL,
	"device_fingerprint" text,
	"user_agent" text,
	"created_at" timestamp with time zone NOT NULL,
	"voided_at" timestamp with time zone DEFAULT now() NOT NULL,
	"voided_by" uuid,
	"void_reason" text NOT NULL,
	CONSTRAINT "voided_votes_reason_len" CHECK (char_length("voided_votes"."void_reason") BETWEEN 1 AND 500)
);
--> statement-breakpoint
CREATE TABLE "report_active_users" (
	"day" date NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "report_active_users_pk" PRIMARY KEY("day","user_id")
);
--> statement-breakpoint
ALTER TABLE "abuse_scans" DROP CONSTRAINT "abuse_scans_status";--> statement-breakpoint
ALTER TABLE "abuse_scans" ALTER COLUMN "status" SET DEFAULT 'queued';--> statement-breakpoint
ALTER TABLE "abuse_scans" ADD COLUMN "progress" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "abuse_scans" ADD COLUMN "requested_by" uuid;--> statement-breakpoint
ALTER TABLE "voided_votes" ADD CONSTRAINT "voided_votes_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voided_votes" ADD CONSTRAINT "voided_votes_voided_by_profiles_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "voided_votes_poll_idx" ON "voided_votes" USING btree ("poll_id");--> statement-breakpoint
CREATE INDEX "voided_votes_user_idx" ON "voided_votes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "voided_votes_device_idx" ON "voided_votes" USING btree ("device_fingerprint");--> statement-breakpoint
ALTER TABLE "abuse_scans" ADD CONSTRAINT "abuse_scans_requested_by_profiles_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_email_trgm_idx" ON "accounts" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "profiles_display_name_trgm_idx" ON "profiles" USING gin (lower("display_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "profiles_username_trgm_idx" ON "profiles" USING gin (lower("username") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "admin_audit_log_action_idx" ON "admin_audit_log" USING btree ("action","created_at");--> statement-breakpoint
ALTER TABLE "abuse_scans" ADD CONSTRAINT "abuse_scans_progress" CHECK ("abuse_scans"."progress" BETWEEN 0 AND 100);--> statement-breakpoint
ALTER TABLE "abuse_scans" ADD CONSTRAINT "abuse_scans_status" CHECK ("abuse_scans"."status" IN ('queued', 'running', 'done', 'failed'));