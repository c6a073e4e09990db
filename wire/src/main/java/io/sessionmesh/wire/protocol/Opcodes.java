package io.sessionmesh.wire.protocol;

/**
 * Operations of the master protocol, one byte in every frame header. Numbers are never reused; a master
 * answers an opcode it does not know with {@code UNSUPPORTED_VERSION}. Bodies are in PROTOCOL.md, section 3.
 */
public final class Opcodes {
    /** Liveness: the body (at most {@link FrameHeader#MAX_PING_BYTES}) comes back as is. */
    public static final int PING = 0x01;
    /** A new empty session: optional idle timeout in the body; the answer carries the id. */
    public static final int CREATE = 0x02;
    /** Batch read of named sections: a READ_REQUEST transport message, answered by a READ_RESULT. */
    public static final int READ = 0x03;
    /** Per-section deltas applied atomically: a WRITE_REQUEST, answered by a WRITE_RESULT. */
    public static final int WRITE = 0x04;
    /** Removes a session: the body is its id. */
    public static final int DELETE = 0x05;
    /** Extends a session's idle time, changing no version: the body is its id. */
    public static final int TOUCH = 0x06;
    /** Stores a one-nio schema: uid (8 bytes) then the schema's bytes. */
    public static final int SCHEMA_PUBLISH = 0x07;
    /** Fetches a one-nio schema by uid (8 bytes); the answer is the schema's bytes. */
    public static final int SCHEMA_FETCH = 0x08;
    /** The master's figures as a JSON object of numbers. */
    public static final int STATS = 0x09;
    /**
     * Pushed by the master (flag PUSH, a push id of its own) on a holder's control connection: sections of a session
     * changed; the holder answers it (flag RESPONSE, same id) once it no longer serves the old copies.
     */
    public static final int INVALIDATE = 0x0A;
    /** A cache names itself on a connection; on its control connection this also starts its lease. */
    public static final int REGISTER = 0x0B;
    /** The cluster map of master groups, from the directory group's leader (PROTOCOL.md 3.9); empty body. */
    public static final int GROUP_MAP = 0x0C;
    /** Adds or removes a master group, or sets the first map: sent to the directory group's leader (PROTOCOL.md 3.9). */
    public static final int GROUP_CHANGE = 0x0D;
    /** The directory's leader tells a group's leader a new map, and may ask it to hand off what it no longer owns. */
    public static final int GROUP_APPLY = 0x0E;
    /** A group's leader hands sessions and schemas to the group that owns them now. */
    public static final int GROUP_IMPORT = 0x0F;
    /** Sets or clears a session's principal, the user it belongs to: session id, then the principal (PROTOCOL.md 3.11). */
    public static final int PRINCIPAL = 0x10;
    /** Deletes every session of a principal on this master, "log out everywhere" (PROTOCOL.md 3.11). */
    public static final int LOGOUT = 0x11;
    /** A session's times and principal, without using it: an operator's lookup (PROTOCOL.md 3.11). */
    public static final int DESCRIBE = 0x12;
    /**
     * Moves a session to a new id and/or gives it a new idle timeout, atomically: old id, idle timeout, new id
     * (PROTOCOL.md 3.2); answered with the session times.
     */
    public static final int RENAME = 0x13;
    /**
     * The live sessions of a principal on this master, read-only (no idle time restarts): the body is the principal, the
     * answer the ids, at most {@link MasterAnswer.SessionsOfPrincipal#MAX_SESSIONS} (PROTOCOL.md 3.2, 3.11).
     */
    public static final int PRINCIPAL_SESSIONS = 0x14;

    private static final String[] NAMES = {
        null, "PING", "CREATE", "READ", "WRITE", "DELETE", "TOUCH", "SCHEMA_PUBLISH", "SCHEMA_FETCH", "STATS", "INVALIDATE",
        "REGISTER", "GROUP_MAP", "GROUP_CHANGE", "GROUP_APPLY", "GROUP_IMPORT", "PRINCIPAL", "LOGOUT", "DESCRIBE", "RENAME",
        "PRINCIPAL_SESSIONS",
    };

    private Opcodes() {
    }

    /** Whether this version of the protocol defines the opcode. */
    public static boolean isKnown(int opcode) {
        return opcode > 0 && opcode < NAMES.length;
    }

    /**
     * Whether the opcode changes what a master holds (sessions, schemas, the cluster map): a request of it that was sent
     * and then lost its answer has an unknown outcome ({@link io.sessionmesh.wire.transport.Status#OUTCOME_UNKNOWN}),
     * not a failure. Reads, PING, STATS, REGISTER (a connection's own state, which goes with the connection) and push
     * confirmations are not changes.
     */
    public static boolean isChange(int opcode) {
        return switch (opcode) {
            case CREATE, WRITE, DELETE, TOUCH, SCHEMA_PUBLISH, GROUP_CHANGE, GROUP_APPLY, GROUP_IMPORT, PRINCIPAL, LOGOUT,
                 RENAME -> true;
            default -> false;
        };
    }

    /** The opcode's name, {@code OPCODE_<n>} for one this version does not know. */
    public static String name(int opcode) {
        return isKnown(opcode) ? NAMES[opcode] : "OPCODE_" + opcode;
    }
}
