-- feed_counts follows posts (0021): the public wall's size (visible public posts without a group),
-- changed in the transaction that changes the posts. Inserts and deletes are counted once per
-- statement from their transition tables (a seed's bulk insert is one upsert); an update changes
-- the count only when it moves a post on or off the wall (hidden, say), so the row-level trigger
-- fires for those rows only. Upserts: a missing row (emptied tables) counts from zero.
--
-- Whether a post is on the public wall, in one place for every trigger here (the feed's own query,
-- wall/repository.ts filterSql, says the same for the page).
CREATE OR REPLACE FUNCTION tribuna_on_public_wall(is_hidden boolean, group_id uuid, visibility text) RETURNS boolean AS $$
  SELECT NOT is_hidden AND group_id IS NULL AND visibility = 'public'
$$ LANGUAGE sql IMMUTABLE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_feed_counts_add(delta bigint) RETURNS void AS $$
BEGIN
  IF delta <> 0 THEN
    INSERT INTO feed_counts AS c (feed, posts) VALUES ('public', delta)
    ON CONFLICT (feed) DO UPDATE SET posts = c.posts + EXCLUDED.posts;
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Statement level: the posts an INSERT added (added_posts) or a DELETE removed (removed_posts).
CREATE OR REPLACE FUNCTION tribuna_feed_counts_statement() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM tribuna_feed_counts_add((SELECT count(*) FROM added_posts p WHERE tribuna_on_public_wall(p.is_hidden, p.group_id, p.visibility)));
  ELSE
    PERFORM tribuna_feed_counts_add(-(SELECT count(*) FROM removed_posts p WHERE tribuna_on_public_wall(p.is_hidden, p.group_id, p.visibility)));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_feed_counts_moved() RETURNS trigger AS $$
BEGIN
  PERFORM tribuna_feed_counts_add(CASE WHEN tribuna_on_public_wall(NEW.is_hidden, NEW.group_id, NEW.visibility) THEN 1 ELSE -1 END);
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
EXECUTE FUNCTION tribuna_feed_counts_statement();
--> statement-breakpoint
CREATE TRIGGER posts_feed_count_delete
AFTER DELETE ON posts
REFERENCING OLD TABLE AS removed_posts
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_feed_counts_statement();
--> statement-breakpoint
CREATE TRIGGER posts_feed_count_update
AFTER UPDATE OF is_hidden, group_id, visibility ON posts
FOR EACH ROW
WHEN (tribuna_on_public_wall(OLD.is_hidden, OLD.group_id, OLD.visibility)
  IS DISTINCT FROM tribuna_on_public_wall(NEW.is_hidden, NEW.group_id, NEW.visibility))
EXECUTE FUNCTION tribuna_feed_counts_moved();
--> statement-breakpoint
CREATE TRIGGER posts_feed_count_truncate
AFTER TRUNCATE ON posts
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_feed_counts_truncated();
--> statement-breakpoint
-- Posts that already exist.
INSERT INTO feed_counts (feed, posts)
SELECT 'public', count(*) FROM posts WHERE tribuna_on_public_wall(is_hidden, group_id, visibility)
ON CONFLICT (feed) DO UPDATE SET posts = EXCLUDED.posts;
