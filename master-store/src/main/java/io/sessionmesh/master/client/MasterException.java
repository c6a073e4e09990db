package io.sessionmesh.master.client;

import io.sessionmesh.serialization.transport.Status;

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

    @Override
    public String toString() {
        return "MasterException [" + Status.name(status) + "]: " + getMessage();
    }
}
