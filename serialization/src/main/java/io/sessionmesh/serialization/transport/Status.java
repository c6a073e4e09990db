package io.sessionmesh.serialization.transport;

/**
 * Numeric status codes: how errors cross the wire (never as serialized exceptions). The same numbers in
 * the binary form and the master protocol; the JSON form and the REST API use the names.
 */
public final class Status {
    /** Success. */
    public static final int OK = 0;
    /** No such session (unknown or expired), or no such schema. */
    public static final int NOT_FOUND = 1;
    /** An ifVersion did not match the section's current version; nothing was applied. */
    public static final int CONFLICT = 2;
    /** Over a size or count limit; nothing was applied. */
    public static final int TOO_LARGE = 3;
    /** Malformed input: bad framing, lengths, names, JSON or base64. */
    public static final int BAD_REQUEST = 4;
    /** No master (or other server) could be reached. */
    public static final int UNAVAILABLE = 5;
    /** A server did not answer in time. */
    public static final int TIMEOUT = 6;
    /** A bug on the server side; the message says what. */
    public static final int INTERNAL = 7;
    /** The message's format version is not one this peer speaks. */
    public static final int UNSUPPORTED_VERSION = 8;

    private static final String[] NAMES = {"OK", "NOT_FOUND", "CONFLICT", "TOO_LARGE", "BAD_REQUEST", "UNAVAILABLE",
        "TIMEOUT", "INTERNAL", "UNSUPPORTED_VERSION"};

    private Status() {
    }

    /** The name of a code, or {@code "STATUS_<n>"} for a code this version does not know. */
    public static String name(int status) {
        return status >= 0 && status < NAMES.length ? NAMES[status] : "STATUS_" + status;
    }

    /** The code of a name, or -1 when the name is not known. */
    public static int fromName(String name) {
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
