-- The vote counters are updated by every vote batch (vote_tallies: one row per user and option;
-- poll_vote_counts: a few rows per option, thousands of updates a second in an episode). Their
-- updates are HOT (no indexed column changes), so old versions are pruned page by page as soon as
-- no snapshot needs them; free room on each page lets the new versions stay on their page while a
-- snapshot is held for a moment, instead of spilling to new pages (and index entries) that only a
-- VACUUM would give back. Autovacuum visits them after a fixed number of dead rows, not a share of
-- the table. `votes` only grows: vacuumed (visibility map) and analyzed as it grows, so plans know
-- its size during an episode.
-- A poll's voters from the tallies (results, live totals and their reconcile) without reading its votes.
CREATE INDEX "vote_tallies_poll_option_idx" ON "vote_tallies" USING btree ("poll_id","option_id");--> statement-breakpoint
ALTER TABLE "poll_vote_counts" SET (fillfactor = 10, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0);--> statement-breakpoint
ALTER TABLE "vote_tallies" SET (fillfactor = 80, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000, autovacuum_analyze_scale_factor = 0.05);--> statement-breakpoint
ALTER TABLE "votes" SET (autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
