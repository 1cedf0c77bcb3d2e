-- Server instances cache resolved sessions for a few seconds; these triggers tell every instance
-- (LISTEN tribuna_auth) at commit time to forget a session or all of a user's sessions.
CREATE OR REPLACE FUNCTION tribuna_notify_session_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('tribuna_auth', 's:' || NEW.id);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_change
AFTER UPDATE OF revoked_at, level, mfa_pending, expires_at ON sessions
FOR EACH ROW
WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
   OR OLD.level IS DISTINCT FROM NEW.level
   OR OLD.mfa_pending IS DISTINCT FROM NEW.mfa_pending
   OR OLD.expires_at > NEW.expires_at)
EXECUTE FUNCTION tribuna_notify_session_change();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tribuna_notify_profile_auth_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('tribuna_auth', 'u:' || NEW.id);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER profiles_notify_auth_change
AFTER UPDATE OF role, is_suspended ON profiles
FOR EACH ROW
WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.is_suspended IS DISTINCT FROM NEW.is_suspended)
EXECUTE FUNCTION tribuna_notify_profile_auth_change();
