CREATE TABLE "report_active_bits" (
	"day" date NOT NULL,
	"block" integer NOT NULL,
	"bits" bit(8192) NOT NULL,
	CONSTRAINT "report_active_bits_pk" PRIMARY KEY("block","day")
);
--> statement-breakpoint
CREATE TABLE "report_user_numbers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"n" integer GENERATED ALWAYS AS IDENTITY (sequence name "report_user_numbers_n_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 2147483647 START WITH 0 CACHE 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "report_user_numbers_n_uq" ON "report_user_numbers" USING btree ("n");