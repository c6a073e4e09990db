-- A session id can be used again once its session has ended (a CREATE with a requested id, a rename onto it); the new
-- session's registry versions start again at 1. The writer and the re-sync now replace a row by an event of a later
-- creation (a later incarnation of the id) or of the same creation at a higher version: the comments say so. No data
-- or index changes.
COMMENT ON COLUMN sm_session.version IS 'The session''s registry version after the event that wrote this row; a row is only replaced by an event of a later created_at (the id used again), or of the same created_at at a higher version';
COMMENT ON COLUMN sm_session.created_at IS 'When the session was created (a renamed session keeps its creation time); with version, what orders the events of an id';
