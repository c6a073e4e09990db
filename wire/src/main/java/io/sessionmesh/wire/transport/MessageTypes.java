package io.sessionmesh.wire.transport;

/**
 * Message type byte of the binary header. Numbers are never reused; a peer that receives a type it does
 * not know answers {@link Status#UNSUPPORTED_VERSION}.
 *
 * @see "PROTOCOL.md, section Transport messages: message types"
 */
public final class MessageTypes {
    /** {@link ReadRequest}: a batch read of sections of one session. */
    public static final int READ_REQUEST = 1;
    /** {@link ReadResult}: the sections found, whole. */
    public static final int READ_RESULT = 2;
    /** {@link WriteRequest}: per-section attribute deltas. */
    public static final int WRITE_REQUEST = 3;
    /** {@link WriteResult}: the new version of every written section. */
    public static final int WRITE_RESULT = 4;
    /** {@link ErrorMessage}: a status code and a human-readable message. */
    public static final int ERROR = 5;
    /** {@link CreateRequest}: a new session, with its idle timeout or the default. */
    public static final int CREATE_REQUEST = 6;
    /** {@link SessionCreated}: the new session's id and timeouts. */
    public static final int SESSION_CREATED = 7;
    /** {@link SessionPrincipal}: a session's principal, or none (the body of PUT and the answer of GET on its path). */
    public static final int SESSION_PRINCIPAL = 8;
    /** {@link RenameRequest}: a session's new id, or new idle timeout, or both (the body of POST on its rename path). */
    public static final int RENAME_REQUEST = 9;
    /** {@link PrincipalSessions}: the live sessions of a principal (the answer of GET on its sessions path). */
    public static final int PRINCIPAL_SESSIONS = 10;

    private static final String[] NAMES = {null, "READ_REQUEST", "READ_RESULT", "WRITE_REQUEST", "WRITE_RESULT", "ERROR",
        "CREATE_REQUEST", "SESSION_CREATED", "SESSION_PRINCIPAL", "RENAME_REQUEST", "PRINCIPAL_SESSIONS"};

    private MessageTypes() {
    }

    /** Whether this version of the protocol defines the type. */
    public static boolean isKnown(int type) {
        return type >= READ_REQUEST && type <= PRINCIPAL_SESSIONS;
    }

    /** The type of a message class; 0 for {@link TransportMessage} itself (any type). */
    static int of(Class<? extends TransportMessage> type) {
        if (type == ReadRequest.class) {
            return READ_REQUEST;
        } else if (type == ReadResult.class) {
            return READ_RESULT;
        } else if (type == WriteRequest.class) {
            return WRITE_REQUEST;
        } else if (type == WriteResult.class) {
            return WRITE_RESULT;
        } else if (type == ErrorMessage.class) {
            return ERROR;
        } else if (type == CreateRequest.class) {
            return CREATE_REQUEST;
        } else if (type == SessionCreated.class) {
            return SESSION_CREATED;
        } else if (type == SessionPrincipal.class) {
            return SESSION_PRINCIPAL;
        } else if (type == RenameRequest.class) {
            return RENAME_REQUEST;
        } else if (type == PrincipalSessions.class) {
            return PRINCIPAL_SESSIONS;
        }
        return 0;
    }

    /** The constant's name, {@code TYPE_<n>} for a type this version does not know. */
    public static String name(int type) {
        return isKnown(type) ? NAMES[type] : "TYPE_" + type;
    }
}
