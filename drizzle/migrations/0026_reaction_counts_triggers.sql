-- post_reaction_counts and comment_reaction_counts (0025) follow post_reactions and comment_reactions
-- like poll_vote_counts follows votes (0010): one aggregated upsert per statement from its
-- transition tables, in the statement's own transaction, never a recount of the item's reactions.
-- The rows a transaction writes are its connection's shard (pg_backend_pid() % 8,
-- REACTION_COUNT_SHARDS), so concurrent taps on a viral post do not wait for each other's COMMIT on
-- one hot row; readers sum the shards, and a shard may go negative (a reaction counted by one
-- connection, removed by another). Rows are locked in (item, type) order within a statement.
--
-- A tap is one statement (wall/repository.ts toggleReaction): a DELETE in a CTE and an INSERT … ON
-- CONFLICT DO UPDATE, so the DELETE, INSERT and UPDATE statement triggers all fire (mostly on empty
-- transition tables). A type change is an UPDATE: -1 for the old type, +1 for the new one, in one
-- upsert; an update that keeps the type nets to zero and writes nothing. Reactions deleted with
-- their item (a post or comment deleted, the foreign key's cascade) are skipped: the item's counts
-- are gone with it by their own cascade.
CREATE OR REPLACE FUNCTION tribuna_post_reaction_counts() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO post_reaction_counts AS c (post_id, reaction_type, shard, reactions)
    SELECT post_id, reaction_type, (pg_backend_pid() % 8)::smallint, count(*)
    FROM added_reactions
    GROUP BY post_id, reaction_type
    ORDER BY post_id, reaction_type
    ON CONFLICT (post_id, reaction_type, shard) DO UPDATE SET reactions = c.reactions + EXCLUDED.reactions;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO post_reaction_counts AS c (post_id, reaction_type, shard, reactions)
    SELECT r.post_id, r.reaction_type, (pg_backend_pid() % 8)::smallint, -count(*)
    FROM removed_reactions r
    WHERE EXISTS (SELECT 1 FROM posts p WHERE p.id = r.post_id)
    GROUP BY r.post_id, r.reaction_type
    ORDER BY r.post_id, r.reaction_type
    ON CONFLICT (post_id, reaction_type, shard) DO UPDATE SET reactions = c.reactions + EXCLUDED.reactions;
  ELSE
    INSERT INTO post_reaction_counts AS c (post_id, reaction_type, shard, reactions)
    SELECT d.post_id, d.reaction_type, (pg_backend_pid() % 8)::smallint, sum(d.delta)
    FROM (
      SELECT post_id, reaction_type, 1 AS delta FROM added_reactions
      UNION ALL
      SELECT post_id, reaction_type, -1 AS delta FROM removed_reactions
    ) d
    GROUP BY d.post_id, d.reaction_type
    HAVING sum(d.delta) <> 0
    ORDER BY d.post_id, d.reaction_type
    ON CONFLICT (post_id, reaction_type, shard) DO UPDATE SET reactions = c.reactions + EXCLUDED.reactions;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_comment_reaction_counts() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO comment_reaction_counts AS c (comment_id, reaction_type, shard, reactions)
    SELECT comment_id, reaction_type, (pg_backend_pid() % 8)::smallint, count(*)
    FROM added_reactions
    GROUP BY comment_id, reaction_type
    ORDER BY comment_id, reaction_type
    ON CONFLICT (comment_id, reaction_type, shard) DO UPDATE SET reactions = c.reactions + EXCLUDED.reactions;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO comment_reaction_counts AS c (comment_id, reaction_type, shard, reactions)
    SELECT r.comment_id, r.reaction_type, (pg_backend_pid() % 8)::smallint, -count(*)
    FROM removed_reactions r
    WHERE EXISTS (SELECT 1 FROM comments m WHERE m.id = r.comment_id)
    GROUP BY r.comment_id, r.reaction_type
    ORDER BY r.comment_id, r.reaction_type
    ON CONFLICT (comment_id, reaction_type, shard) DO UPDATE SET reactions = c.reactions + EXCLUDED.reactions;
  ELSE
    INSERT INTO comment_reaction_counts AS c (comment_id, reaction_type, shard, reactions)
    SELECT d.comment_id, d.reaction_type, (pg_backend_pid() % 8)::smallint, sum(d.delta)
    FROM (
      SELECT comment_id, reaction_type, 1 AS delta FROM added_reactions
      UNION ALL
      SELECT comment_id, reaction_type, -1 AS delta FROM removed_reactions
    ) d
    GROUP BY d.comment_id, d.reaction_type
    HAVING sum(d.delta) <> 0
    ORDER BY d.comment_id, d.reaction_type
    ON CONFLICT (comment_id, reaction_type, shard) DO UPDATE SET reactions = c.reactions + EXCLUDED.reactions;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Emptied reactions leave no counts (the tests' TRUNCATE, a reset of the wall).
CREATE OR REPLACE FUNCTION tribuna_post_reaction_counts_truncate() RETURNS trigger AS $$
BEGIN
  DELETE FROM post_reaction_counts;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_comment_reaction_counts_truncate() RETURNS trigger AS $$
BEGIN
  DELETE FROM comment_reaction_counts;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER post_reactions_count_insert
AFTER INSERT ON post_reactions
REFERENCING NEW TABLE AS added_reactions
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_post_reaction_counts();
--> statement-breakpoint
CREATE TRIGGER post_reactions_count_delete
AFTER DELETE ON post_reactions
REFERENCING OLD TABLE AS removed_reactions
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_post_reaction_counts();
--> statement-breakpoint
-- No column list: PostgreSQL allows none on a trigger with transition tables; updates that keep the
-- type (and post) net to zero above.
CREATE TRIGGER post_reactions_count_update
AFTER UPDATE ON post_reactions
REFERENCING OLD TABLE AS removed_reactions NEW TABLE AS added_reactions
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_post_reaction_counts();
--> statement-breakpoint
CREATE TRIGGER post_reactions_count_truncate
AFTER TRUNCATE ON post_reactions
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_post_reaction_counts_truncate();
--> statement-breakpoint
CREATE TRIGGER comment_reactions_count_insert
AFTER INSERT ON comment_reactions
REFERENCING NEW TABLE AS added_reactions
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_comment_reaction_counts();
--> statement-breakpoint
CREATE TRIGGER comment_reactions_count_delete
AFTER DELETE ON comment_reactions
REFERENCING OLD TABLE AS removed_reactions
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_comment_reaction_counts();
--> statement-breakpoint
CREATE TRIGGER comment_reactions_count_update
AFTER UPDATE ON comment_reactions
REFERENCING OLD TABLE AS removed_reactions NEW TABLE AS added_reactions
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_comment_reaction_counts();
--> statement-breakpoint
CREATE TRIGGER comment_reactions_count_truncate
AFTER TRUNCATE ON comment_reactions
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_comment_reaction_counts_truncate();
--> statement-breakpoint
-- Hot counters, as 0017 set poll_vote_counts: updates are HOT (no indexed column changes), so room
-- on each page lets a viral post's new row versions stay on their page and be pruned there, and
-- autovacuum comes after a fixed number of dead rows, not a share of the table. Half a page, not
-- poll_vote_counts' 90%: these tables hold a few rows for every post and comment, nearly all cold.
ALTER TABLE "post_reaction_counts" SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0);
--> statement-breakpoint
ALTER TABLE "comment_reaction_counts" SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0);
--> statement-breakpoint
-- Reactions that already exist (the triggers above lock out writers until this migration commits).
INSERT INTO post_reaction_counts (post_id, reaction_type, shard, reactions)
SELECT post_id, reaction_type, 0, count(*)
FROM post_reactions
GROUP BY post_id, reaction_type
ON CONFLICT (post_id, reaction_type, shard) DO NOTHING;
--> statement-breakpoint
INSERT INTO comment_reaction_counts (comment_id, reaction_type, shard, reactions)
SELECT comment_id, reaction_type, 0, count(*)
FROM comment_reactions
GROUP BY comment_id, reaction_type
ON CONFLICT (comment_id, reaction_type, shard) DO NOTHING;
