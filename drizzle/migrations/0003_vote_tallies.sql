CREATE TABLE "vote_tallies" (
	"user_id" uuid NOT NULL,
	"poll_id" uuid NOT NULL,
	"option_id" uuid NOT NULL,
	"points" integer NOT NULL,
	"votes" integer NOT NULL,
	"last_voted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "vote_tallies_pk" PRIMARY KEY("user_id","poll_id","option_id")
);
