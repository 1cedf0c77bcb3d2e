CREATE TABLE "accounts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email" text,
	"email_verified" boolean DEFAULT false NOT NULL,
	"oidc_issuer" text NOT NULL,
	"oidc_subject" text NOT NULL,
	"last_sign_in_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_email_len" CHECK (char_length("accounts"."email") <= 320)
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"display_name" text,
	"username" text,
	"bio" text,
	"avatar_url" text,
	"banner_url" text,
	"role" text DEFAULT 'user' NOT NULL,
	"is_suspended" boolean DEFAULT false NOT NULL,
	"total_points" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_display_name_len" CHECK (char_length("profiles"."display_name") BETWEEN 1 AND 50),
	CONSTRAINT "profiles_username_format" CHECK ("profiles"."username" ~ '^[a-z0-9_]{3,20}$'),
	CONSTRAINT "profiles_bio_len" CHECK (char_length("profiles"."bio") <= 500),
	CONSTRAINT "profiles_role" CHECK ("profiles"."role" IN ('admin', 'moderator', 'user'))
);
--> statement-breakpoint
CREATE TABLE "auth_factors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"factor_type" text DEFAULT 'totp' NOT NULL,
	"secret" text NOT NULL,
	"status" text DEFAULT 'unverified' NOT NULL,
	"last_used_step" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_at" timestamp with time zone,
	CONSTRAINT "auth_factors_type" CHECK ("auth_factors"."factor_type" IN ('totp')),
	CONSTRAINT "auth_factors_status" CHECK ("auth_factors"."status" IN ('unverified', 'verified'))
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"level" text DEFAULT 'aal1' NOT NULL,
	"user_agent" text,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "sessions_level" CHECK ("sessions"."level" IN ('aal1', 'aal2'))
);
--> statement-breakpoint
CREATE TABLE "contestants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"season_id" uuid NOT NULL,
	"full_name" text NOT NULL,
	"photo_url" text,
	"status" text DEFAULT 'active' NOT NULL,
	"elimination_date" date,
	"final_position" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contestants_full_name_len" CHECK (char_length("contestants"."full_name") BETWEEN 1 AND 100),
	CONSTRAINT "contestants_status" CHECK ("contestants"."status" IN ('active', 'eliminated', 'finalist', 'winner')),
	CONSTRAINT "contestants_final_position" CHECK ("contestants"."final_position" IS NULL OR "contestants"."final_position" >= 1)
);
--> statement-breakpoint
CREATE TABLE "realities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "realities_name_len" CHECK (char_length("realities"."name") BETWEEN 1 AND 100)
);
--> statement-breakpoint
CREATE TABLE "seasons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reality_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"year" integer NOT NULL,
	"start_date" date,
	"end_date" date,
	"active" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seasons_number_positive" CHECK ("seasons"."number" >= 1),
	CONSTRAINT "seasons_year_range" CHECK ("seasons"."year" BETWEEN 2000 AND 2100),
	CONSTRAINT "seasons_dates_order" CHECK ("seasons"."start_date" IS NULL OR "seasons"."end_date" IS NULL OR "seasons"."start_date" <= "seasons"."end_date")
);
--> statement-breakpoint
CREATE TABLE "poll_options" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"poll_id" uuid NOT NULL,
	"contestant_id" uuid,
	"text" text,
	"order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "poll_options_text_len" CHECK (char_length("poll_options"."text") BETWEEN 1 AND 200),
	CONSTRAINT "poll_options_contestant_or_text" CHECK (NOT ("poll_options"."contestant_id" IS NOT NULL AND "poll_options"."text" IS NOT NULL)),
	CONSTRAINT "poll_options_order" CHECK ("poll_options"."order" >= 0)
);
--> statement-breakpoint
CREATE TABLE "poll_points_config" (
	"poll_id" uuid PRIMARY KEY NOT NULL,
	"points_per_vote" integer DEFAULT 1 NOT NULL,
	"max_points_per_user" integer DEFAULT 1 NOT NULL,
	"daily_reset" boolean DEFAULT false NOT NULL,
	"bonus_for_sharing" integer DEFAULT 5 NOT NULL,
	CONSTRAINT "poll_points_config_points_per_vote" CHECK ("poll_points_config"."points_per_vote" = 1),
	CONSTRAINT "poll_points_config_max_points" CHECK ("poll_points_config"."max_points_per_user" BETWEEN 1 AND 1000),
	CONSTRAINT "poll_points_config_bonus" CHECK ("poll_points_config"."bonus_for_sharing" BETWEEN 0 AND 1000)
);
--> statement-breakpoint
CREATE TABLE "polls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"season_id" uuid NOT NULL,
	"poll_mode" text DEFAULT 'manual' NOT NULL,
	"start_date" timestamp with time zone,
	"end_date" timestamp with time zone,
	"show_results" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "polls_title_len" CHECK (char_length("polls"."title") BETWEEN 1 AND 200),
	CONSTRAINT "polls_description_len" CHECK (char_length("polls"."description") <= 2000),
	CONSTRAINT "polls_status" CHECK ("polls"."status" IN ('draft', 'active', 'closed')),
	CONSTRAINT "polls_mode" CHECK ("polls"."poll_mode" IN ('manual', 'countdown')),
	CONSTRAINT "polls_dates_order" CHECK ("polls"."start_date" IS NULL OR "polls"."end_date" IS NULL OR "polls"."start_date" <= "polls"."end_date")
);
--> statement-breakpoint
CREATE TABLE "share_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"poll_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"points_earned" integer DEFAULT 0 NOT NULL,
	"share_day" date NOT NULL,
	"shared_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "share_history_platform" CHECK ("share_history"."platform" IN ('native', 'whatsapp', 'facebook', 'x', 'telegram', 'copy')),
	CONSTRAINT "share_history_points" CHECK ("share_history"."points_earned" >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_points_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"points" integer NOT NULL,
	"reason" text NOT NULL,
	"reference_id" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_points_history_points_nonzero" CHECK ("user_points_history"."points" <> 0),
	CONSTRAINT "user_points_history_reason" CHECK ("user_points_history"."reason" IN ('vote', 'share', 'admin_adjustment')),
	CONSTRAINT "user_points_history_description_len" CHECK (char_length("user_points_history"."description") <= 500)
);
--> statement-breakpoint
CREATE TABLE "votes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "votes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"poll_id" uuid NOT NULL,
	"option_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"points" integer DEFAULT 1 NOT NULL,
	"device_fingerprint" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "votes_points_positive" CHECK ("votes"."points" >= 1),
	CONSTRAINT "votes_fingerprint_len" CHECK (char_length("votes"."device_fingerprint") <= 128),
	CONSTRAINT "votes_user_agent_len" CHECK (char_length("votes"."user_agent") <= 512)
);
--> statement-breakpoint
CREATE TABLE "comment_reactions" (
	"comment_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"reaction_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comment_reactions_comment_id_user_id_pk" PRIMARY KEY("comment_id","user_id"),
	CONSTRAINT "comment_reactions_type" CHECK ("comment_reactions"."reaction_type" IN ('like', 'love', 'haha', 'wow', 'sad', 'angry'))
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"parent_comment_id" uuid,
	"content" text NOT NULL,
	"media_url" text,
	"media_type" text,
	"thumbnail_url" text,
	"is_hidden" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comments_content_len" CHECK (char_length("comments"."content") BETWEEN 1 AND 500),
	CONSTRAINT "comments_media_type" CHECK ("comments"."media_type" IS NULL OR "comments"."media_type" IN ('image', 'video')),
	CONSTRAINT "comments_not_own_parent" CHECK ("comments"."parent_comment_id" IS NULL OR "comments"."parent_comment_id" <> "comments"."id")
);
--> statement-breakpoint
CREATE TABLE "group_members" (
	"group_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id"),
	CONSTRAINT "group_members_role" CHECK ("group_members"."role" IN ('admin', 'moderator', 'member'))
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"avatar_url" text,
	"cover_url" text,
	"privacy" text DEFAULT 'public' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "groups_name_len" CHECK (char_length("groups"."name") BETWEEN 1 AND 100),
	CONSTRAINT "groups_description_len" CHECK (char_length("groups"."description") <= 500),
	CONSTRAINT "groups_privacy" CHECK ("groups"."privacy" IN ('public', 'private'))
);
--> statement-breakpoint
CREATE TABLE "post_media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"media_type" text NOT NULL,
	"url" text NOT NULL,
	"thumbnail_url" text,
	"width" integer,
	"height" integer,
	"order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "post_media_type" CHECK ("post_media"."media_type" IN ('image', 'video')),
	CONSTRAINT "post_media_order" CHECK ("post_media"."order" BETWEEN 0 AND 9),
	CONSTRAINT "post_media_dimensions" CHECK (("post_media"."width" IS NULL OR "post_media"."width" > 0) AND ("post_media"."height" IS NULL OR "post_media"."height" > 0))
);
--> statement-breakpoint
CREATE TABLE "post_reactions" (
	"post_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"reaction_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_reactions_post_id_user_id_pk" PRIMARY KEY("post_id","user_id"),
	CONSTRAINT "post_reactions_type" CHECK ("post_reactions"."reaction_type" IN ('like', 'love', 'haha', 'wow', 'sad', 'angry'))
);
--> statement-breakpoint
CREATE TABLE "posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"group_id" uuid,
	"content" text DEFAULT '' NOT NULL,
	"visibility" text DEFAULT 'public' NOT NULL,
	"is_pinned" boolean DEFAULT false NOT NULL,
	"is_hidden" boolean DEFAULT false NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "posts_content_len" CHECK (char_length("posts"."content") <= 2000),
	CONSTRAINT "posts_visibility" CHECK ("posts"."visibility" IN ('public', 'followers', 'group')),
	CONSTRAINT "posts_group_visibility" CHECK ("posts"."visibility" <> 'group' OR "posts"."group_id" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "abuse_scans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"flagged_devices" integer DEFAULT 0 NOT NULL,
	"flagged_users" integer DEFAULT 0 NOT NULL,
	"suspicious_votes" integer DEFAULT 0 NOT NULL,
	"report" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "abuse_scans_status" CHECK ("abuse_scans"."status" IN ('running', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "page_views" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "page_views_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid,
	"page_path" text NOT NULL,
	"referrer" text,
	"user_agent" text,
	"session_id" text NOT NULL,
	"device_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "page_views_path_len" CHECK (char_length("page_views"."page_path") BETWEEN 1 AND 2048),
	CONSTRAINT "page_views_referrer_len" CHECK (char_length("page_views"."referrer") <= 2048),
	CONSTRAINT "page_views_user_agent_len" CHECK (char_length("page_views"."user_agent") <= 512),
	CONSTRAINT "page_views_session_len" CHECK (char_length("page_views"."session_id") BETWEEN 8 AND 64),
	CONSTRAINT "page_views_device_type" CHECK ("page_views"."device_type" IN ('mobile', 'desktop'))
);
--> statement-breakpoint
CREATE TABLE "report_daily" (
	"day" date PRIMARY KEY NOT NULL,
	"active_users" integer DEFAULT 0 NOT NULL,
	"new_users" integer DEFAULT 0 NOT NULL,
	"total_votes" integer DEFAULT 0 NOT NULL,
	"page_views" integer DEFAULT 0 NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_daily_non_negative" CHECK ("report_daily"."active_users" >= 0 AND "report_daily"."new_users" >= 0 AND "report_daily"."total_votes" >= 0 AND "report_daily"."page_views" >= 0)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_factors" ADD CONSTRAINT "auth_factors_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contestants" ADD CONSTRAINT "contestants_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seasons" ADD CONSTRAINT "seasons_reality_id_realities_id_fk" FOREIGN KEY ("reality_id") REFERENCES "public"."realities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_options" ADD CONSTRAINT "poll_options_poll_id_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_options" ADD CONSTRAINT "poll_options_contestant_id_contestants_id_fk" FOREIGN KEY ("contestant_id") REFERENCES "public"."contestants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_points_config" ADD CONSTRAINT "poll_points_config_poll_id_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "polls" ADD CONSTRAINT "polls_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_history" ADD CONSTRAINT "share_history_poll_id_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_history" ADD CONSTRAINT "share_history_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_points_history" ADD CONSTRAINT "user_points_history_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votes" ADD CONSTRAINT "votes_poll_id_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votes" ADD CONSTRAINT "votes_option_id_poll_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."poll_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votes" ADD CONSTRAINT "votes_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_parent_comment_id_comments_id_fk" FOREIGN KEY ("parent_comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_reactions" ADD CONSTRAINT "post_reactions_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_reactions" ADD CONSTRAINT "post_reactions_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_views" ADD CONSTRAINT "page_views_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_oidc_uq" ON "accounts" USING btree ("oidc_issuer","oidc_subject");--> statement-breakpoint
CREATE INDEX "accounts_email_idx" ON "accounts" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_username_lower_uq" ON "profiles" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "profiles_created_at_idx" ON "profiles" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "profiles_display_name_idx" ON "profiles" USING btree (lower("display_name"));--> statement-breakpoint
CREATE INDEX "auth_factors_user_idx" ON "auth_factors" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "contestants_season_idx" ON "contestants" USING btree ("season_id","full_name");--> statement-breakpoint
CREATE UNIQUE INDEX "seasons_reality_number_uq" ON "seasons" USING btree ("reality_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "seasons_one_active_per_reality_uq" ON "seasons" USING btree ("reality_id") WHERE "seasons"."active";--> statement-breakpoint
CREATE UNIQUE INDEX "poll_options_poll_order_uq" ON "poll_options" USING btree ("poll_id","order");--> statement-breakpoint
CREATE UNIQUE INDEX "polls_one_featured_uq" ON "polls" USING btree ("is_featured") WHERE "polls"."is_featured";--> statement-breakpoint
CREATE INDEX "polls_status_created_idx" ON "polls" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "polls_season_idx" ON "polls" USING btree ("season_id");--> statement-breakpoint
CREATE UNIQUE INDEX "share_history_once_per_day_uq" ON "share_history" USING btree ("poll_id","user_id","share_day");--> statement-breakpoint
CREATE UNIQUE INDEX "user_points_history_award_uq" ON "user_points_history" USING btree ("user_id","reason","reference_id") WHERE "user_points_history"."reference_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "user_points_history_user_idx" ON "user_points_history" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "votes_poll_option_idx" ON "votes" USING btree ("poll_id","option_id");--> statement-breakpoint
CREATE INDEX "votes_user_poll_created_idx" ON "votes" USING btree ("user_id","poll_id","created_at");--> statement-breakpoint
CREATE INDEX "votes_device_idx" ON "votes" USING btree ("device_fingerprint");--> statement-breakpoint
CREATE INDEX "votes_created_idx" ON "votes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "comments_post_idx" ON "comments" USING btree ("post_id","created_at");--> statement-breakpoint
CREATE INDEX "comments_parent_idx" ON "comments" USING btree ("parent_comment_id");--> statement-breakpoint
CREATE INDEX "comments_user_idx" ON "comments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "group_members_user_idx" ON "group_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "post_media_post_order_uq" ON "post_media" USING btree ("post_id","order");--> statement-breakpoint
CREATE INDEX "post_reactions_user_idx" ON "post_reactions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "posts_feed_recent_idx" ON "posts" USING btree ("created_at") WHERE NOT "posts"."is_hidden" AND "posts"."group_id" IS NULL;--> statement-breakpoint
CREATE INDEX "posts_feed_activity_idx" ON "posts" USING btree ("last_activity_at") WHERE NOT "posts"."is_hidden" AND "posts"."group_id" IS NULL;--> statement-breakpoint
CREATE INDEX "posts_user_idx" ON "posts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "posts_group_idx" ON "posts" USING btree ("group_id","created_at");--> statement-breakpoint
CREATE INDEX "abuse_scans_started_idx" ON "abuse_scans" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "page_views_created_idx" ON "page_views" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "page_views_user_created_idx" ON "page_views" USING btree ("user_id","created_at");