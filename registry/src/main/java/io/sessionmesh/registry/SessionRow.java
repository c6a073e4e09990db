package io.sessionmesh.registry;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One session's row in the registry, as the newest event of it left it.
 *
 * @param sessionKey the session's keyed hash ({@link SessionKeys}), never its id
 * @param version its version after that event
 * @param state active, expired, deleted, logged_out, or ended (a re-sync found it gone from its master's store)
 * @param principal its user, or null
 * @param host the peer that created it, or null
 * @param owner the master (group) that holds, or last held, it
 * @param createdAt when it was created
 * @param changedAt when its newest event happened
 * @param endedAt when it ended, null while active
 * @param recordedAt when the row was last written
 */
public record SessionRow(String sessionKey, long version, String state, String principal, String host, String owner,
                         Instant createdAt, Instant changedAt, Instant endedAt, Instant recordedAt) {
    /** The row for a JSON answer: snake_case keys, times as ISO-8601 strings, nulls kept. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("session_key", sessionKey);
        m.put("version", version);
        m.put("state", state);
        m.put("principal", principal);
        m.put("host", host);
        m.put("owner", owner);
        m.put("created_at", iso(createdAt));
        m.put("changed_at", iso(changedAt));
        m.put("ended_at", iso(endedAt));
        m.put("recorded_at", iso(recordedAt));
        return m;
    }

    private static String iso(Instant t) {
        return t == null ? null : t.toString();
    }
}
