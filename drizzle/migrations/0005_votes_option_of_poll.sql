-- A vote's option must belong to the vote's poll: one composite foreign key replaces the two
-- single-column ones (poll existence follows through poll_options' own key), so each inserted vote
-- costs one foreign-key check instead of two. The unique constraint it references comes first.
ALTER TABLE "poll_options" ADD CONSTRAINT "poll_options_poll_id_id_uq" UNIQUE("poll_id","id");
--> statement-breakpoint
ALTER TABLE "votes" DROP CONSTRAINT "votes_poll_id_polls_id_fk";
--> statement-breakpoint
ALTER TABLE "votes" DROP CONSTRAINT "votes_option_id_poll_options_id_fk";
--> statement-breakpoint
ALTER TABLE "votes" ADD CONSTRAINT "votes_option_of_poll_fk" FOREIGN KEY ("poll_id","option_id") REFERENCES "public"."poll_options"("poll_id","id") ON DELETE cascade ON UPDATE no action;
