CREATE TABLE "report_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_version_single_row" CHECK ("report_version"."id" = 1)
);
--> statement-breakpoint
CREATE SEQUENCE "report_version_seq";
--> statement-breakpoint
-- Any statement that changes the report aggregates sets a new version in its own transaction, so
-- the new number becomes visible exactly when the new figures do. The numbers come from a
-- sequence, so they never repeat, even if the row itself is emptied (an answer cached under an old
-- number can never be taken for a new one). Every writer of the aggregates already holds the
-- aggregation advisory lock, so the row lock taken here adds no waiting.
CREATE FUNCTION report_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_version (id, version) VALUES (1, nextval('report_version_seq'))
  ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER report_daily_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON report_daily
  FOR EACH STATEMENT EXECUTE FUNCTION report_version_bump();
--> statement-breakpoint
CREATE TRIGGER report_active_bits_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON report_active_bits
  FOR EACH STATEMENT EXECUTE FUNCTION report_version_bump();
