-- How far a periodic job has proved its work complete (the points sweep's votes and shares): its
-- next run scans from there, minus an overlap, instead of its whole window.
CREATE TABLE "maintenance_watermarks" (
	"name" text PRIMARY KEY NOT NULL,
	"value" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
