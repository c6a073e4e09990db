-- Every registry event is an upsert of one row, and every index on sm_session is kept up on each: measured, the
-- indexes cost more than the rows themselves (600,000 inserts: 2.7 s with the primary key alone, 6.6 s with the four
-- partial indexes of V1), and on a host the database shares with a master that CPU is the master's throughput
-- (benchmarks/RESULTS.md 11). Only the principal's index serves a question asked on the request path of an
-- operator (a principal's sessions); the others served rare scans: a count by host, a re-sync's end of one owner's
-- rows, the retention's delete of a chunk of old ended rows. Those now scan the table, once a minute at most, or
-- once per re-sync.
DROP INDEX IF EXISTS sm_session_active_owner;
DROP INDEX IF EXISTS sm_session_active_host;
DROP INDEX IF EXISTS sm_session_ended_at;
