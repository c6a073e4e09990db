-- A session id is a bearer secret: the registry's readers, its DBAs and its backups held every live session. Rows are
-- keyed now by session_key, HMAC-SHA256 of the id under the registry-id-key setting (unpadded base64url, 43
-- characters: io.sessionmesh.registry.SessionKeys), which masters and sidecars share; the admin lookup by id computes
-- it. The rows written before hold raw ids and the key is not in the database, so they cannot be converted here: they
-- are deleted. Each master re-syncs its store at start (every live session's row comes back, keyed), so only the rows
-- of ended sessions (kept for registry-retention) are lost with this migration.
DELETE FROM sm_session;
ALTER TABLE sm_session RENAME COLUMN session_id TO session_key;
ALTER TABLE sm_session ADD CONSTRAINT sm_session_key_form CHECK (session_key ~ '^[A-Za-z0-9_-]{43}$');
COMMENT ON COLUMN sm_session.session_key IS 'HMAC-SHA256 of the session id under registry-id-key, unpadded base64url: never the id itself, a bearer secret';
