CREATE TABLE "follows" (
	"follower_id" uuid NOT NULL,
	"followee_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "follows_follower_id_followee_id_pk" PRIMARY KEY("follower_id","followee_id"),
	CONSTRAINT "follows_not_self" CHECK ("follows"."follower_id" <> "follows"."followee_id")
);
--> statement-breakpoint
CREATE TABLE "group_bans" (
	"group_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"banned_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_bans_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "group_join_requests" (
	"group_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_join_requests_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type";--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "post_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "followers_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "following_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "member_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_follower_id_profiles_id_fk" FOREIGN KEY ("follower_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_followee_id_profiles_id_fk" FOREIGN KEY ("followee_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_bans" ADD CONSTRAINT "group_bans_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_bans" ADD CONSTRAINT "group_bans_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_bans" ADD CONSTRAINT "group_bans_banned_by_profiles_id_fk" FOREIGN KEY ("banned_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_join_requests" ADD CONSTRAINT "group_join_requests_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_join_requests" ADD CONSTRAINT "group_join_requests_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "follows_followee_idx" ON "follows" USING btree ("followee_id","created_at" DESC NULLS LAST,"follower_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "follows_follower_idx" ON "follows" USING btree ("follower_id","created_at" DESC NULLS LAST,"followee_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "group_bans_user_idx" ON "group_bans" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "group_join_requests_group_idx" ON "group_join_requests" USING btree ("group_id","created_at","user_id");--> statement-breakpoint
CREATE INDEX "group_join_requests_user_idx" ON "group_join_requests" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_members_list_idx" ON "group_members" USING btree ("group_id","joined_at","user_id");--> statement-breakpoint
CREATE INDEX "groups_directory_idx" ON "groups" USING btree ("member_count" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "groups_created_by_idx" ON "groups" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "posts_group_activity_idx" ON "posts" USING btree ("group_id","last_activity_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE NOT "posts"."is_hidden" AND "posts"."group_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "posts_group_pinned_idx" ON "posts" USING btree ("group_id","created_at" DESC NULLS LAST) WHERE "posts"."is_pinned" AND NOT "posts"."is_hidden" AND "posts"."group_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_member_count" CHECK ("groups"."member_count" >= 0);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_post" CHECK (("notifications"."type" = 'follow') = ("notifications"."post_id" IS NULL));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type" CHECK ("notifications"."type" IN ('post_reaction', 'comment_reaction', 'post_comment', 'comment_reply', 'post_mention', 'comment_mention', 'follow'));--> statement-breakpoint
-- Fan clubs and follows (issue 28). groups.member_count and profiles.followers_count /
-- following_count follow group_members and follows in the writing statement's own transaction: one
-- aggregated UPDATE per statement from its transition table (a bulk insert of a million memberships
-- is one UPDATE per group), never a recount. Rows deleted with their group or profile (a cascade)
-- update whatever rows still exist.
CREATE OR REPLACE FUNCTION tribuna_group_member_count() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE groups g SET member_count = g.member_count + d.n
    FROM (SELECT group_id, count(*)::int AS n FROM added_members GROUP BY group_id ORDER BY group_id) d
    WHERE g.id = d.group_id;
  ELSE
    UPDATE groups g SET member_count = g.member_count - d.n
    FROM (SELECT group_id, count(*)::int AS n FROM removed_members GROUP BY group_id ORDER BY group_id) d
    WHERE g.id = d.group_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER group_members_count_insert AFTER INSERT ON group_members
  REFERENCING NEW TABLE AS added_members FOR EACH STATEMENT EXECUTE FUNCTION tribuna_group_member_count();--> statement-breakpoint
CREATE TRIGGER group_members_count_delete AFTER DELETE ON group_members
  REFERENCING OLD TABLE AS removed_members FOR EACH STATEMENT EXECUTE FUNCTION tribuna_group_member_count();--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_follow_counts() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE profiles p SET followers_count = p.followers_count + d.n
    FROM (SELECT followee_id AS id, count(*)::int AS n FROM added_follows GROUP BY followee_id ORDER BY followee_id) d
    WHERE p.id = d.id;
    UPDATE profiles p SET following_count = p.following_count + d.n
    FROM (SELECT follower_id AS id, count(*)::int AS n FROM added_follows GROUP BY follower_id ORDER BY follower_id) d
    WHERE p.id = d.id;
  ELSE
    UPDATE profiles p SET followers_count = greatest(p.followers_count - d.n, 0)
    FROM (SELECT followee_id AS id, count(*)::int AS n FROM removed_follows GROUP BY followee_id ORDER BY followee_id) d
    WHERE p.id = d.id;
    UPDATE profiles p SET following_count = greatest(p.following_count - d.n, 0)
    FROM (SELECT follower_id AS id, count(*)::int AS n FROM removed_follows GROUP BY follower_id ORDER BY follower_id) d
    WHERE p.id = d.id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER follows_count_insert AFTER INSERT ON follows
  REFERENCING NEW TABLE AS added_follows FOR EACH STATEMENT EXECUTE FUNCTION tribuna_follow_counts();--> statement-breakpoint
CREATE TRIGGER follows_count_delete AFTER DELETE ON follows
  REFERENCING OLD TABLE AS removed_follows FOR EACH STATEMENT EXECUTE FUNCTION tribuna_follow_counts();--> statement-breakpoint
UPDATE groups g SET member_count = (SELECT count(*) FROM group_members m WHERE m.group_id = g.id);
