package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.Status;

/**
 * A store operation refused, with the {@link Status} code to answer and a message that names what is wrong
 * (never a session id or a value). Nothing of the refused operation was applied. Carries no stack trace:
 * refusals are answers, not bugs, and a flood of them must stay cheap.
 */
public final class StoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    public StoreException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /** The {@link Status} code. */
    public int status() {
        return status;
    }

    public static StoreException notFound() {
        return new StoreException(Status.NOT_FOUND, "no such session (unknown, deleted or expired)");
    }

    static StoreException tooLarge(String message) {
        return new StoreException(Status.TOO_LARGE, message);
    }

    @Override
    public String toString() {
        return "StoreException [" + Status.name(status) + "]: " + getMessage();
    }
}
