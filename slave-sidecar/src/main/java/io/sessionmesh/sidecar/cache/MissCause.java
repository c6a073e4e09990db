package io.sessionmesh.sidecar.cache;

import java.util.Locale;

/**
 * Why a section asked for was not served from the cache (the admin endpoint's {@code cache.section_misses} and
 * {@code cache.read_misses}, by these names in lower case). Counted when a read looks the section up; the order is
 * the order the cache checks in.
 */
public enum MissCause {
    /** The lease with the session's master was not valid: nothing is served from the cache. */
    LEASE,
    /** The session's entry was cached in an earlier lease epoch (a control connection was lost or replaced since). */
    EPOCH,
    /** No entry for the session and none removed recently: its first use on this host (as far as the cache remembers). */
    NEW_SESSION,
    /** No entry: it expired (the session's idle time or lifetime as the master gave it, or {@code cache-ttl}). */
    EXPIRED,
    /** No entry: it was evicted for size ({@code cache-max-bytes}). */
    EVICTED,
    /** The entry never held this section: first read of it here, or the fill of an earlier read was refused. */
    NEW_SECTION,
    /** Dropped (or refused) because another cache's write changed it: an invalidation from the master. */
    INVALIDATED,
    /** This sidecar wrote the section and could not keep the written version (it could not build it from the delta). */
    WRITE_NOT_KEPT,
    /** This sidecar's write of the section failed or its outcome is unknown: dropped. */
    WRITE_FAILED;

    /** The name in the admin figures. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    static MissCause of(byte code) {
        return values()[code];
    }

    byte code() {
        return (byte) ordinal();
    }
}
