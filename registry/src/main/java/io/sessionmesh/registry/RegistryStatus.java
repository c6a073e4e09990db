package io.sessionmesh.registry;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a master's registry writer is doing, for its health and stats answers. Counts are since start; the lag
 * percentiles are over the interval since the previous {@link RegistryWriter#status()} call, and since start.
 *
 * @param state {@value #UP}, or {@value #DEGRADED}: the database is unreachable or failing, or a re-sync (or the
 *              first migration) is pending or running
 * @param backlog events waiting to be written (buffered, and the batch in hand)
 * @param backlogPeak the largest backlog the writer saw (just before taking a batch) over the last interval
 * @param bound the most events buffered before a re-sync covers them instead
 * @param written events committed (before collapsing to one row per session)
 * @param batches statements that committed events
 * @param resyncs full re-syncs done
 * @param resyncRows active sessions the re-syncs copied, all together
 * @param coveredByResync events not written because a re-sync covered them (buffer overflows)
 * @param failures attempts that failed (a connection, a statement, a re-sync, a migration)
 * @param lastError the last failure's message while degraded by one, else null
 * @param lagP50Micros median time from record to commit over the last interval, microseconds
 * @param lagP99Micros its 99th percentile
 * @param lagMaxMicros its maximum
 * @param sinceMillis how long the writer has been in this state
 * @param lagSinceStartP50Micros median time from record to commit since start, microseconds
 * @param lagSinceStartP99Micros its 99th percentile
 * @param lagSinceStartMaxMicros its maximum
 */
public record RegistryStatus(String state, long backlog, long backlogPeak, long bound, long written, long batches,
                             long resyncs, long resyncRows, long coveredByResync, long failures, String lastError, long lagP50Micros,
                             long lagP99Micros, long lagMaxMicros, long sinceMillis, long lagSinceStartP50Micros,
                             long lagSinceStartP99Micros, long lagSinceStartMaxMicros) {
    /** Events are written as they come. */
    public static final String UP = "UP";
    /** Events wait in the buffer: the database is unreachable or failing, or a re-sync is pending. */
    public static final String DEGRADED = "DEGRADED";

    /** The status for a JSON answer: snake_case keys, the state as a string, numbers as numbers. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("state", state);
        m.put("backlog", backlog);
        m.put("backlog_peak", backlogPeak);
        m.put("bound", bound);
        m.put("written", written);
        m.put("batches", batches);
        m.put("resyncs", resyncs);
        m.put("resync_rows", resyncRows);
        m.put("resync_covered_events", coveredByResync);
        m.put("failures", failures);
        m.put("last_error", lastError);
        m.put("lag_p50_micros", lagP50Micros);
        m.put("lag_p99_micros", lagP99Micros);
        m.put("lag_max_micros", lagMaxMicros);
        m.put("since_millis", sinceMillis);
        m.put("lag_since_start_p50_micros", lagSinceStartP50Micros);
        m.put("lag_since_start_p99_micros", lagSinceStartP99Micros);
        m.put("lag_since_start_max_micros", lagSinceStartMaxMicros);
        return m;
    }
}
