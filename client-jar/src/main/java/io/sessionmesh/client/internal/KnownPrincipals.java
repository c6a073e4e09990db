package io.sessionmesh.client.internal;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The principal this client last knew each session to have (from its creation, a set or clear, or a read), so that a
 * check on every request (the Spring integration's "did the user log in mid-session?") costs a map lookup instead of
 * a call. At most {@code capacity} sessions: when full it is emptied and fills again (the next request of each
 * session reads its principal once more). Another process may change a principal meanwhile; this is what this JVM
 * knows, not the truth. Thread-safe.
 */
public final class KnownPrincipals {
    /** Sessions remembered by default. */
    public static final int DEFAULT_CAPACITY = 65_536;
    private static final String NONE = "";

    private final ConcurrentHashMap<String, String> bySession = new ConcurrentHashMap<>();
    private final int capacity;

    public KnownPrincipals(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity + ": expected 1 or more");
        }
        this.capacity = capacity;
    }

    /** The principal last known for a session (empty: none), or null when this client does not know. */
    public Optional<String> get(String sessionId) {
        String p = bySession.get(sessionId);
        return p == null ? null : p.isEmpty() ? Optional.empty() : Optional.of(p);
    }

    public void put(String sessionId, Optional<String> principal) {
        if (bySession.size() >= capacity) {
            bySession.clear();
        }
        bySession.put(sessionId, principal.orElse(NONE));
    }

    public void forget(String sessionId) {
        bySession.remove(sessionId);
    }

    public int size() {
        return bySession.size();
    }
}
