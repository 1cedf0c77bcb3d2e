CREATE TABLE "admin_user_search" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"display_name" text,
	"username" text,
	"email" text,
	"role" text NOT NULL,
	"is_suspended" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"doc" text GENERATED ALWAYS AS (coalesce(lower(display_name), '') || E'\n' || coalesce(lower(username), '') || E'\n' || coalesce(lower(email), '')) STORED NOT NULL
);
--> statement-breakpoint
DROP INDEX "accounts_email_trgm_idx";--> statement-breakpoint
DROP INDEX "profiles_display_name_trgm_idx";--> statement-breakpoint
DROP INDEX "profiles_username_trgm_idx";--> statement-breakpoint
ALTER TABLE "admin_user_search" ADD CONSTRAINT "admin_user_search_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_user_search_doc_trgm_idx" ON "admin_user_search" USING gin ("doc" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "admin_user_search_created_idx" ON "admin_user_search" USING btree ("created_at","user_id");--> statement-breakpoint
-- admin_user_search is kept by triggers. Each side writes only its own columns: a profile change
-- never rewrites the e-mail and an account change never rewrites the profile's fields, so two
-- transactions changing both at once cannot leave a stale copy (the row lock orders them).
CREATE FUNCTION admin_user_search_from_profile() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO admin_user_search (user_id, display_name, username, email, role, is_suspended, created_at)
    VALUES (NEW.id, NEW.display_name, NEW.username, (SELECT email FROM accounts WHERE user_id = NEW.id), NEW.role, NEW.is_suspended, NEW.created_at);
  ELSE
    UPDATE admin_user_search
    SET display_name = NEW.display_name, username = NEW.username, role = NEW.role, is_suspended = NEW.is_suspended, created_at = NEW.created_at
    WHERE user_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER admin_user_search_profile_insert AFTER INSERT ON profiles
  FOR EACH ROW EXECUTE FUNCTION admin_user_search_from_profile();
--> statement-breakpoint
CREATE TRIGGER admin_user_search_profile_update AFTER UPDATE OF display_name, username, role, is_suspended, created_at ON profiles
  FOR EACH ROW
  WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name OR OLD.username IS DISTINCT FROM NEW.username OR OLD.role IS DISTINCT FROM NEW.role
        OR OLD.is_suspended IS DISTINCT FROM NEW.is_suspended OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION admin_user_search_from_profile();
--> statement-breakpoint
CREATE FUNCTION admin_user_search_from_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE admin_user_search SET email = NULL WHERE user_id = OLD.user_id;
  ELSE
    IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id THEN
      UPDATE admin_user_search SET email = NULL WHERE user_id = OLD.user_id;
    END IF;
    UPDATE admin_user_search SET email = NEW.email WHERE user_id = NEW.user_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER admin_user_search_account_change AFTER INSERT OR DELETE OR UPDATE OF email, user_id ON accounts
  FOR EACH ROW EXECUTE FUNCTION admin_user_search_from_account();
--> statement-breakpoint
INSERT INTO admin_user_search (user_id, display_name, username, email, role, is_suspended, created_at)
SELECT p.id, p.display_name, p.username, a.email, p.role, p.is_suspended, p.created_at
FROM profiles p LEFT JOIN accounts a ON a.user_id = p.id;
