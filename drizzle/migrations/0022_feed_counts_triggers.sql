-- feed_counts follows posts (0021): the public wall's size (visible public posts without a group),
-- changed in the transaction that changes the posts. Inserts and deletes are counted once per
-- statement from their transition tables (a seed's bulk insert is one upsert); an update changes
-- the count only when it moves a post in or out of the wall (hidden, say), so the row-level trigger
-- fires for those rows only. Upserts: a missing row (emptied tables) counts from zero.
CREATE OR REPLACE FUNCTION tribuna_feed_counts_add(delta bigint) RETURNS void AS $$
BEGIN
  IF delta <> 0 THEN
    INSERT INTO feed_counts AS c (feed, posts) VALUES ('public', delta)
    ON CONFLICT (feed) DO UPDATE SET posts = c.posts + EXCLUDED.posts;
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_feed_counts_inserted() RETURNS trigger AS $$
BEGIN
  PERFORM tribuna_feed_counts_add((
    SELECT count(*) FROM added_posts p WHERE NOT p.is_hidden AND p.group_id IS NULL AND p.visibility = 'public'
  ));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_feed_counts_deleted() RETURNS trigger AS $$
BEGIN
  PERFORM tribuna_feed_counts_add(-(
    SELECT count(*) FROM removed_posts p WHERE NOT p.is_hidden AND p.group_id IS NULL AND p.visibility = 'public'
  ));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_feed_counts_moved() RETURNS trigger AS $$
BEGIN
  PERFORM tribuna_feed_counts_add(CASE WHEN NOT NEW.is_hidden AND NEW.group_id IS NULL AND NEW.visibility = 'public' THEN 1 ELSE -1 END);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_feed_counts_truncated() RETURNS trigger AS $$
BEGIN
  DELETE FROM feed_counts;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER posts_feed_count_insert
AFTER INSERT ON posts
REFERENCING NEW TABLE AS added_posts
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_feed_counts_inserted();
--> statement-breakpoint
CREATE TRIGGER posts_feed_count_delete
AFTER DELETE ON posts
REFERENCING OLD TABLE AS removed_posts
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_feed_counts_deleted();
--> statement-breakpoint
CREATE TRIGGER posts_feed_count_update
AFTER UPDATE OF is_hidden, group_id, visibility ON posts
FOR EACH ROW
WHEN ((NOT OLD.is_hidden AND OLD.group_id IS NULL AND OLD.visibility = 'public')
  IS DISTINCT FROM (NOT NEW.is_hidden AND NEW.group_id IS NULL AND NEW.visibility = 'public'))
EXECUTE FUNCTION tribuna_feed_counts_moved();
--> statement-breakpoint
CREATE TRIGGER posts_feed_count_truncate
AFTER TRUNCATE ON posts
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_feed_counts_truncated();
--> statement-breakpoint
-- Posts that already exist.
INSERT INTO feed_counts (feed, posts)
SELECT 'public', count(*) FROM posts WHERE NOT is_hidden AND group_id IS NULL AND visibility = 'public'
ON CONFLICT (feed) DO UPDATE SET posts = EXCLUDED.posts;
