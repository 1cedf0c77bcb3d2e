CREATE TABLE "comment_reaction_counts" (
	"comment_id" uuid NOT NULL,
	"reaction_type" text NOT NULL,
	"shard" smallint NOT NULL,
	"reactions" bigint NOT NULL,
	CONSTRAINT "comment_reaction_counts_pk" PRIMARY KEY("comment_id","reaction_type","shard")
);
--> statement-breakpoint
CREATE TABLE "post_reaction_counts" (
	"post_id" uuid NOT NULL,
	"reaction_type" text NOT NULL,
	"shard" smallint NOT NULL,
	"reactions" bigint NOT NULL,
	CONSTRAINT "post_reaction_counts_pk" PRIMARY KEY("post_id","reaction_type","shard")
);
--> statement-breakpoint
ALTER TABLE "comment_reaction_counts" ADD CONSTRAINT "comment_reaction_counts_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_reaction_counts" ADD CONSTRAINT "post_reaction_counts_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;