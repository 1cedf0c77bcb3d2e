CREATE TABLE "feed_counts" (
	"feed" text PRIMARY KEY NOT NULL,
	"posts" bigint NOT NULL,
	CONSTRAINT "feed_counts_feed" CHECK ("feed_counts"."feed" = 'public')
);
