package io.sessionmesh.wire.transport;

/**
 * Status codes that cross the wire: in {@link ErrorMessage}s (REST bodies) and in the status byte of every master
 * frame's header (PROTOCOL.md 3.1), where a code other than OK makes the body a message. One unsigned byte in the
 * binary form, the {@linkplain #name(int) name} in the JSON form; the sidecar maps each to an HTTP status (PROTOCOL.md
 * 2.3). A peer may receive a code it does not know from a newer peer: it keeps the number and names it
 * {@code STATUS_<n>}.
 *
 * @see "PROTOCOL.md, section 2.3 (status codes)"
 */
public final class Status {
    /** Success; never carried by an {@link ErrorMessage}. */
    public static final int OK = 0;
    /** The session or section does not exist (or has expired). */
    public static final int NOT_FOUND = 1;
    /** A conditional write's ifVersion does not match the section's current version. */
    public static final int CONFLICT = 2;
    /** A length, a count or the whole message is above its limit ({@link TransportLimits}). */
    public static final int TOO_LARGE = 3;
    /** The message is malformed: truncated, bad UTF-8, bad name, duplicate name, wrong type. */
    public static final int BAD_REQUEST = 4;
    /** The peer cannot serve now (starting, stopping, overloaded); retry elsewhere or later. */
    public static final int UNAVAILABLE = 5;
    /** The peer gave up waiting for another node. */
    public static final int TIMEOUT = 6;
    /** A bug or an unexpected failure in the peer. */
    public static final int INTERNAL = 7;
    /** The format version, message type or a must-understand flag is unknown to this peer. */
    public static final int UNSUPPORTED_VERSION = 8;
    /**
     * A replica of a master group that is not its leader (or not yet ready to lead): the message is the leader's data
     * address, {@code host:port}, or empty when this replica knows of none (PROTOCOL.md 3.8).
     */
    public static final int NOT_LEADER = 9;
    /**
     * The session (or schema) is not this master group's any more: a move of ranges to another group took it, or the
     * cluster map gives it to another group. The message is the map's epoch, in decimal: the sender fetches a map at
     * least that new and asks the group it names (PROTOCOL.md 3.9).
     */
    public static final int MOVED = 10;
    /**
     * The session is being moved between master groups at this moment (taken out of the old group, not yet in the new
     * one): nothing was applied; send the request again in a few milliseconds (PROTOCOL.md 3.9).
     */
    public static final int MOVING = 11;
    /**
     * The peer is known and refused: a REGISTER for a holder that another peer (certificate subject, or address
     * without TLS) registered first (PROTOCOL.md 3.7, 3.10).
     */
    public static final int FORBIDDEN = 12;
    /**
     * A change (a WRITE, CREATE, DELETE, RENAME, ...) may or may not have been applied: it was sent, and then the
     * connection broke or no answer came in time. Distinct from {@link #UNAVAILABLE}, which says the change was not sent
     * (or was refused) and so was certainly not applied. A WRITE sent again with the same write id is applied at most
     * once (PROTOCOL.md 3.12); any other change must be looked at before it is sent again.
     */
    public static final int OUTCOME_UNKNOWN = 13;
    /** The highest code the wire can carry (one unsigned byte). */
    public static final int MAX_CODE = 255;

    private static final String[] NAMES = {
        "OK", "NOT_FOUND", "CONFLICT", "TOO_LARGE", "BAD_REQUEST", "UNAVAILABLE", "TIMEOUT", "INTERNAL",
        "UNSUPPORTED_VERSION", "NOT_LEADER", "MOVED", "MOVING", "FORBIDDEN", "OUTCOME_UNKNOWN",
    };
    private static final String UNKNOWN_PREFIX = "STATUS_";

    private Status() {
    }

    /** The constant's name, {@code STATUS_<code>} for a code this version does not know. */
    public static String name(int code) {
        return code >= 0 && code < NAMES.length ? NAMES[code] : UNKNOWN_PREFIX + code;
    }

    /** Whether this version of the protocol defines the code. */
    public static boolean isKnown(int code) {
        return code >= 0 && code < NAMES.length;
    }

    /**
     * The code of a name produced by {@link #name(int)}, or -1 if the name is neither a constant's name
     * nor {@code STATUS_<n>} with n in 0..{@value #MAX_CODE}.
     */
    public static int code(String name) {
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(name)) {
                return i;
            }
        }
        if (name.startsWith(UNKNOWN_PREFIX) && name.length() > UNKNOWN_PREFIX.length()
                && name.length() <= UNKNOWN_PREFIX.length() + 3) {
            int code = 0;
            for (int i = UNKNOWN_PREFIX.length(); i < name.length(); i++) {
                char c = name.charAt(i);
                if (c < '0' || c > '9') {
                    return -1;
                }
                code = code * 10 + (c - '0');
            }
            // One spelling per code: no leading zeros, and known codes go by their names.
            boolean canonical = name.equals(UNKNOWN_PREFIX + code);
            return canonical && code <= MAX_CODE && !isKnown(code) ? code : -1;
        }
        return -1;
    }
}
