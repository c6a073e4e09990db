package io.sessionmesh.serialization.transport;

/** The message type byte of the binary form's header (PROTOCOL.md, "Transport messages"). */
public final class MessageTypes {
    /** {@link ReadRequest}. */
    public static final int READ_REQUEST = 1;
    /** {@link ReadResult}. */
    public static final int READ_RESULT = 2;
    /** {@link WriteRequest}. */
    public static final int WRITE_REQUEST = 3;
    /** {@link WriteResult}. */
    public static final int WRITE_RESULT = 4;
    /** {@link ErrorMessage}. */
    public static final int ERROR = 5;

    private MessageTypes() {
    }

    /** The type of a model object. */
    static int of(Object message) {
        if (message instanceof ReadRequest) {
            return READ_REQUEST;
        } else if (message instanceof ReadResult) {
            return READ_RESULT;
        } else if (message instanceof WriteRequest) {
            return WRITE_REQUEST;
        } else if (message instanceof WriteResult) {
            return WRITE_RESULT;
        } else if (message instanceof ErrorMessage) {
            return ERROR;
        }
        throw new IllegalArgumentException("not a transport message: " + (message == null ? null : message.getClass()));
    }
}
