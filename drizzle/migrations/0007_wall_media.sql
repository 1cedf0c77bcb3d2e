CREATE TABLE "media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"thumb_key" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"placeholder" text,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_dimensions" CHECK ("media"."width" > 0 AND "media"."height" > 0 AND "media"."bytes" > 0),
	CONSTRAINT "media_content_type" CHECK ("media"."content_type" IN ('image/webp', 'image/avif'))
);
--> statement-breakpoint
DROP INDEX "posts_feed_recent_idx";--> statement-breakpoint
DROP INDEX "posts_feed_activity_idx";--> statement-breakpoint
DROP INDEX "posts_user_idx";--> statement-breakpoint
DROP INDEX "posts_group_idx";--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "media_id" uuid;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "media_alt" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_media" ADD COLUMN "media_id" uuid;--> statement-breakpoint
ALTER TABLE "post_media" ADD COLUMN "alt_text" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_uploaded_by_profiles_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "media_key_uq" ON "media" USING btree ("key");--> statement-breakpoint
CREATE INDEX "media_thumb_key_idx" ON "media" USING btree ("thumb_key");--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comments_media_idx" ON "comments" USING btree ("media_id");--> statement-breakpoint
CREATE INDEX "post_media_media_idx" ON "post_media" USING btree ("media_id");--> statement-breakpoint
CREATE INDEX "posts_feed_recent_idx" ON "posts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE NOT "posts"."is_hidden" AND "posts"."group_id" IS NULL;--> statement-breakpoint
CREATE INDEX "posts_feed_activity_idx" ON "posts" USING btree ("last_activity_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE NOT "posts"."is_hidden" AND "posts"."group_id" IS NULL;--> statement-breakpoint
CREATE INDEX "posts_user_idx" ON "posts" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "posts_group_idx" ON "posts" USING btree ("group_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_media_alt_len" CHECK (char_length("comments"."media_alt") <= 300);--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_alt_len" CHECK (char_length("post_media"."alt_text") <= 300);