-- poll_vote_counts follows votes like vote_tallies does (0004): one aggregated upsert per statement
-- from its transition table, never one per row. The row a transaction writes is its connection's
-- shard (pg_backend_pid() % 8, VOTE_COUNT_SHARDS), so two vote batches of the same poll on two
-- connections do not wait for each other's COMMIT on one hot row; readers sum the shards. Rows are
-- locked in (poll, option) order within a statement. The rare deadlock left (two connections of the
-- same shard whose delete and insert parts cross) is retried by the vote writer (40P01).
CREATE OR REPLACE FUNCTION tribuna_poll_vote_counts_add() RETURNS trigger AS $$
BEGIN
  INSERT INTO poll_vote_counts AS c (poll_id, option_id, shard, votes, points)
  SELECT poll_id, option_id, (pg_backend_pid() % 8)::smallint, count(*), sum(points)
  FROM added_votes
  GROUP BY poll_id, option_id
  ORDER BY poll_id, option_id
  ON CONFLICT (poll_id, option_id, shard) DO UPDATE SET
    votes = c.votes + EXCLUDED.votes,
    points = c.points + EXCLUDED.points;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- A delete may find no row in its own shard (the votes were counted by another connection): it
-- writes a negative one, the sum stays right. Votes deleted with their option (a poll deleted) are
-- skipped: the option's counts are gone with it (the foreign key's cascade).
CREATE OR REPLACE FUNCTION tribuna_poll_vote_counts_remove() RETURNS trigger AS $$
BEGIN
  INSERT INTO poll_vote_counts AS c (poll_id, option_id, shard, votes, points)
  SELECT r.poll_id, r.option_id, (pg_backend_pid() % 8)::smallint, -count(*), -sum(r.points)
  FROM removed_votes r
  WHERE EXISTS (SELECT 1 FROM poll_options o WHERE o.poll_id = r.poll_id AND o.id = r.option_id)
  GROUP BY r.poll_id, r.option_id
  ORDER BY r.poll_id, r.option_id
  ON CONFLICT (poll_id, option_id, shard) DO UPDATE SET
    votes = c.votes + EXCLUDED.votes,
    points = c.points + EXCLUDED.points;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER votes_count_add
AFTER INSERT ON votes
REFERENCING NEW TABLE AS added_votes
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_poll_vote_counts_add();
--> statement-breakpoint
CREATE TRIGGER votes_count_remove
AFTER DELETE ON votes
REFERENCING OLD TABLE AS removed_votes
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_poll_vote_counts_remove();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_poll_vote_counts_truncate() RETURNS trigger AS $$
BEGIN
  DELETE FROM poll_vote_counts;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER votes_count_truncate
AFTER TRUNCATE ON votes
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_poll_vote_counts_truncate();
--> statement-breakpoint
-- Votes that already exist.
INSERT INTO poll_vote_counts (poll_id, option_id, shard, votes, points)
SELECT poll_id, option_id, 0, count(*), sum(points)
FROM votes
GROUP BY poll_id, option_id
ON CONFLICT (poll_id, option_id, shard) DO NOTHING;
