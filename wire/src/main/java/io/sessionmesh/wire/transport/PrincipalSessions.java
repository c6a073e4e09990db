package io.sessionmesh.wire.transport;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The live sessions of a principal, as the masters hold them: the answer of {@code GET /admin/principals/{principal}/live-sessions} (the sidecar's admin port)
 * (PROTOCOL.md 2.2, message type 10). {@code complete} is false when the list may lack some: a master (group) did not
 * answer, one had more than it lists, or master groups were moving sessions. Immutable.
 *
 * <p>{@link #toString()} never shows the principal or an id: the one names a user, the others are bearer secrets.
 */
public final class PrincipalSessions implements TransportMessage {
    /** Flag byte of the binary form: every live session of the principal is listed. Other bits are BAD_REQUEST. */
    public static final int FLAG_COMPLETE = 0x01;

    private final String principal;
    private final List<String> sessionIds;
    private final boolean complete;

    /**
     * @param principal a principal ({@link TransportLimits#checkPrincipal})
     * @param sessionIds session ids, none twice, at most {@value TransportLimits#MAX_PRINCIPAL_SESSION_IDS}
     * @param complete whether every live session of the principal is listed
     * @throws IllegalArgumentException if a value breaks its rules (the message never repeats the principal or an id)
     */
    public PrincipalSessions(String principal, List<String> sessionIds, boolean complete) {
        this.principal = TransportLimits.checkPrincipal(principal);
        if (sessionIds.size() > TransportLimits.MAX_PRINCIPAL_SESSION_IDS) {
            throw new IllegalArgumentException(sessionIds.size() + " session ids is above the limit of "
                    + TransportLimits.MAX_PRINCIPAL_SESSION_IDS);
        }
        Set<String> seen = new HashSet<>();
        for (String id : sessionIds) {
            TransportLimits.checkSessionId(id);
            if (!seen.add(id)) {
                throw new IllegalArgumentException("a session id is listed twice");
            }
        }
        this.sessionIds = List.copyOf(sessionIds);
        this.complete = complete;
    }

    @Override
    public int type() {
        return MessageTypes.PRINCIPAL_SESSIONS;
    }

    public String principal() {
        return principal;
    }

    /** The ids of the principal's live sessions, in no particular order. */
    public List<String> sessionIds() {
        return sessionIds;
    }

    /** Whether every live session of the principal is listed. */
    public boolean complete() {
        return complete;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PrincipalSessions p && p.principal.equals(principal) && p.sessionIds.equals(sessionIds)
                && p.complete == complete;
    }

    @Override
    public int hashCode() {
        return (principal.hashCode() * 31 + sessionIds.hashCode()) * 31 + Boolean.hashCode(complete);
    }

    @Override
    public String toString() {
        return "sessions of a principal of " + Utf8.textLength(principal) + " bytes: " + sessionIds.size()
                + (complete ? ", complete" : ", perhaps more");
    }
}
