package io.sessionmesh.master.store;

/**
 * What a session carries beside its data and times, for snapshots and moves: its principal, the host that created
 * it, and its registry version (PROTOCOL.md 5.3).
 *
 * @param principal the user it belongs to, or null
 * @param host the peer that created it, or null when unknown
 * @param registryVersion its registry version, 1 or more
 */
public record Identity(String principal, String host, long registryVersion) {
    /** A session recorded by a build that kept none of this. */
    public static final Identity UNKNOWN = new Identity(null, null, 1);

    /** Under the session's monitor. */
    static Identity of(Session session) {
        return new Identity(session.principal, session.host, session.registryVersion);
    }

    void applyTo(Session session) {
        session.principal = principal;
        session.host = host;
        session.registryVersion = registryVersion;
    }
}
