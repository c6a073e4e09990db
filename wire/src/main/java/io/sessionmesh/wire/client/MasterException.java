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

    public MasterException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public MasterException(int status, String message, Throwable cause) {
        super(message, cause, false, false);
        this.status = status;
    }

    /** The {@link Status} code. */
    public int status() {
        return status;
    }

    /** The status of a future's failure: a MasterException's own (unwrapped from a Completion- or ExecutionException), else -1. */
    public static int statusOf(Throwable error) {
        Throwable cause = (error instanceof java.util.concurrent.CompletionException
                || error instanceof java.util.concurrent.ExecutionException) && error.getCause() != null
                ? error.getCause() : error;
        return cause instanceof MasterException m ? m.status() : -1;
    }

    @Override
    public String toString() {
        return "MasterException [" + Status.name(status) + "]: " + getMessage();
    }
}
