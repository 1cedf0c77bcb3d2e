CREATE TABLE "poll_vote_counts" (
	"poll_id" uuid NOT NULL,
	"option_id" uuid NOT NULL,
	"shard" smallint NOT NULL,
	"votes" bigint NOT NULL,
	"points" bigint NOT NULL,
	CONSTRAINT "poll_vote_counts_pk" PRIMARY KEY("poll_id","option_id","shard")
);
--> statement-breakpoint
ALTER TABLE "poll_vote_counts" ADD CONSTRAINT "poll_vote_counts_option_fk" FOREIGN KEY ("poll_id","option_id") REFERENCES "public"."poll_options"("poll_id","id") ON DELETE cascade ON UPDATE no action;