-- The unread badge counts a user's unread notification groups (notifications/repository.ts
-- unreadCount). It read every unread row: on a viral post the author has one per reactor, and
-- every tap batch recounted them. With group_key in the partial index the count skips from one
-- group to the next (a recursive index probe per group), whatever the number of rows in a group.
-- The index still serves every "user_id = … AND read_at IS NULL" query (its first column).
DROP INDEX "notifications_user_unread_idx";--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id","group_key") WHERE "notifications"."read_at" IS NULL;