package io.sessionmesh.wire.client;

import io.sessionmesh.wire.transport.Status;

/**
 * A master answered with a status other than OK, or could not be reached or did not answer in time
 * ({@link Status#UNAVAILABLE}, {@link Status#TIMEOUT}). The message comes from the master or names the
 * connection and what happened.
 */
public final class MasterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    /** The master's own message when it answered with an error (for NOT_LEADER, the leader's address); else "". */
    private final String masterMessage;

    public MasterException(int status, String message) {
        this(status, message, "");
    }

    /** An error the master answered: {@code masterMessage} is its message as it sent it. */
    public MasterException(int status, String message, String masterMessage) {
        super(message, null, false, false);
        this.status = status;
        this.masterMessage = masterMessage;
    }

    public MasterException(int status, String message, Throwable cause) {
        super(message, cause, false, false);
        this.status = status;
        this.masterMessage = "";
    }

    /** The master's own message, without what this side added ("" when the master sent none). */
    public String masterMessage() {
        return masterMessage;
    }

    /** The {@link Status} code. */
    public int status() {
        return status;
    }

    /** The status of a future's failure: a MasterException's own (unwrapped from a Completion- or ExecutionException), else -1. */
    public static int statusOf(Throwable error) {
        MasterException m = of(error);
        return m == null ? -1 : m.status();
    }

    /** The MasterException behind a future's failure, or null. */
    public static MasterException of(Throwable error) {
        Throwable cause = (error instanceof java.util.concurrent.CompletionException
                || error instanceof java.util.concurrent.ExecutionException) && error.getCause() != null
                ? error.getCause() : error;
        return cause instanceof MasterException m ? m : null;
    }

    @Override
    public String toString() {
        return "MasterException [" + Status.name(status) + "]: " + getMessage();
    }
}
