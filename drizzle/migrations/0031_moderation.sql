CREATE TABLE "moderation_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"moderator_id" uuid,
	"target_type" text NOT NULL,
	"target_id" uuid NOT NULL,
	"target_user_id" uuid NOT NULL,
	"action" text NOT NULL,
	"reason" text,
	"silence_for" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_actions_target_type" CHECK ("moderation_actions"."target_type" IN ('post', 'comment', 'profile')),
	CONSTRAINT "moderation_actions_action" CHECK ("moderation_actions"."action" IN ('dismiss', 'hide', 'restore', 'delete', 'silence', 'unsilence', 'suspend')),
	CONSTRAINT "moderation_actions_silence_for" CHECK (("moderation_actions"."action" = 'silence') = ("moderation_actions"."silence_for" IS NOT NULL)),
	CONSTRAINT "moderation_actions_silence_for_value" CHECK ("moderation_actions"."silence_for" IS NULL OR "moderation_actions"."silence_for" IN ('1h', '24h', '7d'))
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reporter_id" uuid NOT NULL,
	"target_type" text NOT NULL,
	"target_id" uuid NOT NULL,
	"target_user_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"comment" text,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"action_id" uuid,
	CONSTRAINT "reports_target_type" CHECK ("reports"."target_type" IN ('post', 'comment', 'profile')),
	CONSTRAINT "reports_reason" CHECK ("reports"."reason" IN ('spam', 'harassment', 'sexual', 'violence', 'impersonation', 'other')),
	CONSTRAINT "reports_status" CHECK ("reports"."status" IN ('open', 'dismissed', 'actioned')),
	CONSTRAINT "reports_comment_len" CHECK ("reports"."comment" IS NULL OR char_length("reports"."comment") BETWEEN 1 AND 500),
	CONSTRAINT "reports_resolved" CHECK (("reports"."status" = 'open') = ("reports"."resolved_at" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "user_blocks" (
	"blocker_id" uuid NOT NULL,
	"blocked_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_blocks_blocker_id_blocked_id_pk" PRIMARY KEY("blocker_id","blocked_id"),
	CONSTRAINT "user_blocks_not_self" CHECK ("user_blocks"."blocker_id" <> "user_blocks"."blocked_id")
);
--> statement-breakpoint
CREATE TABLE "user_mutes" (
	"user_id" uuid NOT NULL,
	"muted_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_mutes_user_id_muted_id_pk" PRIMARY KEY("user_id","muted_id"),
	CONSTRAINT "user_mutes_not_self" CHECK ("user_mutes"."user_id" <> "user_mutes"."muted_id")
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_post";--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "silenced_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "moderation_hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "moderation_hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_moderator_id_profiles_id_fk" FOREIGN KEY ("moderator_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_target_user_id_profiles_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_profiles_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_target_user_id_profiles_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_resolved_by_profiles_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_action_id_moderation_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."moderation_actions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blocker_id_profiles_id_fk" FOREIGN KEY ("blocker_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blocked_id_profiles_id_fk" FOREIGN KEY ("blocked_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_mutes" ADD CONSTRAINT "user_mutes_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_mutes" ADD CONSTRAINT "user_mutes_muted_id_profiles_id_fk" FOREIGN KEY ("muted_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_actions_target_user_idx" ON "moderation_actions" USING btree ("target_user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "moderation_actions_item_idx" ON "moderation_actions" USING btree ("target_type","target_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_uq" ON "reports" USING btree ("reporter_id","target_type","target_id") WHERE "reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "reports_item_idx" ON "reports" USING btree ("target_type","target_id","status");--> statement-breakpoint
CREATE INDEX "reports_status_created_idx" ON "reports" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reports_target_user_idx" ON "reports" USING btree ("target_user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_blocks_list_idx" ON "user_blocks" USING btree ("blocker_id","created_at" DESC NULLS LAST,"blocked_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_blocks_blocked_idx" ON "user_blocks" USING btree ("blocked_id","blocker_id");--> statement-breakpoint
CREATE INDEX "user_mutes_list_idx" ON "user_mutes" USING btree ("user_id","created_at" DESC NULLS LAST,"muted_id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type" CHECK ("notifications"."type" IN ('post_reaction', 'comment_reaction', 'post_comment', 'comment_reply', 'post_mention', 'comment_mention', 'follow', 'report_actioned', 'report_dismissed'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_post" CHECK (("notifications"."type" IN ('follow', 'report_actioned', 'report_dismissed')) = ("notifications"."post_id" IS NULL));
--> statement-breakpoint
-- A moderator's silence (issue 29) is carried by every cached session of the user (the checks of
-- posting, commenting and reacting read it there): every instance forgets those sessions when it
-- changes ('d:', a data change: unlike 'u:', the user's live sockets stay open).
CREATE OR REPLACE FUNCTION tribuna_notify_profile_data_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('tribuna_auth', 'd:' || NEW.id);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER profiles_notify_silence_change
AFTER UPDATE OF silenced_until ON profiles
FOR EACH ROW
WHEN (OLD.silenced_until IS DISTINCT FROM NEW.silenced_until)
EXECUTE FUNCTION tribuna_notify_profile_data_change();
