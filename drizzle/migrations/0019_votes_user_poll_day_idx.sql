DROP INDEX "votes_user_poll_created_idx";--> statement-breakpoint
CREATE INDEX "votes_user_poll_day_idx" ON "votes" USING btree ("user_id","poll_id",(("created_at" AT TIME ZONE 'UTC')::date));