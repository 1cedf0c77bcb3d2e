CREATE TABLE "vote_requests" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"poll_id" uuid NOT NULL,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vote_requests_pk" PRIMARY KEY("user_id","key"),
	CONSTRAINT "vote_requests_key_len" CHECK (char_length("vote_requests"."key") BETWEEN 8 AND 100)
);
--> statement-breakpoint
ALTER TABLE "vote_requests" ADD CONSTRAINT "vote_requests_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vote_requests" ADD CONSTRAINT "vote_requests_poll_id_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vote_requests_created_idx" ON "vote_requests" USING btree ("created_at");