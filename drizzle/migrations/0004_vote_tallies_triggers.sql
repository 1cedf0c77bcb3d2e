-- vote_tallies follows votes: one aggregated upsert (or update) per statement, from its transition
-- table, so a batch of votes costs one tally statement, not one per row. Votes are never updated
-- in place (a changed single-choice vote is a delete and an insert), so INSERT and DELETE suffice.
CREATE OR REPLACE FUNCTION tribuna_vote_tallies_add() RETURNS trigger AS $$
BEGIN
  INSERT INTO vote_tallies AS t (user_id, poll_id, option_id, points, votes, last_voted_at)
  SELECT user_id, poll_id, option_id, sum(points)::int, count(*)::int, max(created_at)
  FROM added_votes
  GROUP BY user_id, poll_id, option_id
  ON CONFLICT (user_id, poll_id, option_id) DO UPDATE SET
    points = t.points + EXCLUDED.points,
    votes = t.votes + EXCLUDED.votes,
    last_voted_at = greatest(t.last_voted_at, EXCLUDED.last_voted_at);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_vote_tallies_remove() RETURNS trigger AS $$
BEGIN
  UPDATE vote_tallies t SET
    points = t.points - gone.points,
    votes = t.votes - gone.votes,
    -- The newest vote still there (the deleted ones are no longer visible here).
    last_voted_at = coalesce(
      (SELECT max(v.created_at) FROM votes v
        WHERE v.user_id = t.user_id AND v.poll_id = t.poll_id AND v.option_id = t.option_id),
      t.last_voted_at)
  FROM (
    SELECT user_id, poll_id, option_id, sum(points)::int AS points, count(*)::int AS votes
    FROM removed_votes
    GROUP BY user_id, poll_id, option_id
  ) AS gone
  WHERE t.user_id = gone.user_id AND t.poll_id = gone.poll_id AND t.option_id = gone.option_id;

  DELETE FROM vote_tallies t
  USING (SELECT DISTINCT user_id, poll_id, option_id FROM removed_votes) AS gone
  WHERE t.votes <= 0
    AND t.user_id = gone.user_id AND t.poll_id = gone.poll_id AND t.option_id = gone.option_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER votes_tally_add
AFTER INSERT ON votes
REFERENCING NEW TABLE AS added_votes
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_vote_tallies_add();
--> statement-breakpoint
CREATE TRIGGER votes_tally_remove
AFTER DELETE ON votes
REFERENCING OLD TABLE AS removed_votes
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_vote_tallies_remove();
--> statement-breakpoint
-- DELETE, not TRUNCATE: a TRUNCATE naming both tables is still using vote_tallies when this runs.
CREATE OR REPLACE FUNCTION tribuna_vote_tallies_truncate() RETURNS trigger AS $$
BEGIN
  DELETE FROM vote_tallies;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER votes_tally_truncate
AFTER TRUNCATE ON votes
FOR EACH STATEMENT
EXECUTE FUNCTION tribuna_vote_tallies_truncate();
--> statement-breakpoint
-- Votes that already exist.
INSERT INTO vote_tallies (user_id, poll_id, option_id, points, votes, last_voted_at)
SELECT user_id, poll_id, option_id, sum(points)::int, count(*)::int, max(created_at)
FROM votes
GROUP BY user_id, poll_id, option_id
ON CONFLICT (user_id, poll_id, option_id) DO NOTHING;
