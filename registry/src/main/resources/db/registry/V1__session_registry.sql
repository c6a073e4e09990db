-- The active-session registry: one row per session, as the newest lifecycle event of it made the row
-- (io.sessionmesh.registry.LifecycleEvent). Written by masters (RegistryWriter: batched upserts guarded by
-- the version, so a replayed or an old event changes nothing), read by sidecars' admin endpoints
-- (RegistryQueries). Rows of ended sessions stay for the retention, then are deleted.

CREATE TABLE sm_session (
    session_id  text        NOT NULL PRIMARY KEY,
    version     bigint      NOT NULL,
    state       text        NOT NULL CHECK (state IN ('active', 'expired', 'deleted', 'logged_out', 'ended')),
    principal   text        NULL,
    host        text        NULL,
    owner       text        NOT NULL,
    created_at  timestamptz NOT NULL,
    changed_at  timestamptz NOT NULL,
    ended_at    timestamptz NULL,
    recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

COMMENT ON TABLE sm_session IS 'SessionMesh sessions, active and recently ended: one row per session as its newest lifecycle event made it';
COMMENT ON COLUMN sm_session.session_id IS 'The session id ([A-Za-z0-9_-]{1,128})';
COMMENT ON COLUMN sm_session.version IS 'The session''s version after the event that wrote this row; a row is only replaced by a higher version';
COMMENT ON COLUMN sm_session.state IS 'active; expired, deleted or logged_out (how it ended); ended (a re-sync found it gone from its master''s store without its event)';
COMMENT ON COLUMN sm_session.principal IS 'The user the session belongs to, or null for none';
COMMENT ON COLUMN sm_session.host IS 'The peer that created the session: its certificate subject with TLS, its address without';
COMMENT ON COLUMN sm_session.owner IS 'The master, or the master group, that holds (or last held) the session';
COMMENT ON COLUMN sm_session.created_at IS 'When the session was created';
COMMENT ON COLUMN sm_session.changed_at IS 'When the event that wrote this row happened (on the master)';
COMMENT ON COLUMN sm_session.ended_at IS 'When the session ended (its event''s time; for ended: when the re-sync found it gone); null while active';
COMMENT ON COLUMN sm_session.recorded_at IS 'When this row was last written (the database''s clock_timestamp()); a re-sync ends only rows recorded before it began';

-- What the admin endpoint asks: active sessions by user, by master, by host; retention: ended rows by age.
CREATE INDEX sm_session_active_principal ON sm_session (principal) WHERE state = 'active';
CREATE INDEX sm_session_active_owner ON sm_session (owner) WHERE state = 'active';
CREATE INDEX sm_session_active_host ON sm_session (host) WHERE state = 'active';
CREATE INDEX sm_session_ended_at ON sm_session (ended_at) WHERE state <> 'active';
