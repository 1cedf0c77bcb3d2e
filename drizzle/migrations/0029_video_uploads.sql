-- Video clips (issue 30): media rows may hold an MP4 (with its length; thumb_key is its poster), and
-- video_uploads keeps a clip being processed by the worker until a server publishes its post.
CREATE TABLE "video_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"group_id" uuid,
	"content" text DEFAULT '' NOT NULL,
	"visibility" text NOT NULL,
	"alt_text" text,
	"upload_key" text NOT NULL,
	"bytes" integer NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"media_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_uploads_status" CHECK ("video_uploads"."status" IN ('processing', 'transcoded')),
	CONSTRAINT "video_uploads_visibility" CHECK ("video_uploads"."visibility" IN ('public', 'followers', 'group')),
	CONSTRAINT "video_uploads_content_len" CHECK (char_length("video_uploads"."content") <= 2000),
	CONSTRAINT "video_uploads_alt_len" CHECK (char_length("video_uploads"."alt_text") <= 300),
	CONSTRAINT "video_uploads_transcoded" CHECK (("video_uploads"."status" = 'transcoded') = ("video_uploads"."media_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "media" DROP CONSTRAINT "media_content_type";--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "duration_ms" integer;--> statement-breakpoint
ALTER TABLE "video_uploads" ADD CONSTRAINT "video_uploads_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_uploads" ADD CONSTRAINT "video_uploads_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_uploads" ADD CONSTRAINT "video_uploads_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "video_uploads_upload_key_uq" ON "video_uploads" USING btree ("upload_key");--> statement-breakpoint
CREATE INDEX "video_uploads_user_idx" ON "video_uploads" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "video_uploads_media_idx" ON "video_uploads" USING btree ("media_id");--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_video_duration" CHECK (("media"."content_type" = 'video/mp4') = ("media"."duration_ms" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_content_type" CHECK ("media"."content_type" IN ('image/webp', 'image/avif', 'video/mp4'));