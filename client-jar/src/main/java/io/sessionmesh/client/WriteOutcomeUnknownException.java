package io.sessionmesh.client;

import io.sessionmesh.wire.protocol.WriteId;

/**
 * A change may or may not have been applied (OUTCOME_UNKNOWN, 504 with that code): it reached the sidecar, or the
 * sidecar sent it to a master, and then the connection broke or no answer came in time. Not the same as
 * {@link SidecarUnavailableException}, which says the change was not applied.
 *
 * <p>A save ({@link Session#save()}) carries a write id ({@link #writeId()}), and the masters apply a write of one id
 * at most once: calling {@code save()} again on the same {@link Session}, with nothing changed meanwhile, sends the same
 * write under the same id, and is answered with its versions whether the first one was applied or not. The client and
 * the sidecar have already sent it again a bounded number of times before this was thrown. For any other change (a
 * create, a delete, a rename) read the session before trying again: it may be done.
 */
public class WriteOutcomeUnknownException extends SessionMeshException {
    private static final long serialVersionUID = 1L;

    private final transient WriteId writeId;

    public WriteOutcomeUnknownException(String message, WriteId writeId) {
        super(13, message);
        this.writeId = writeId;
    }

    public WriteOutcomeUnknownException(String message, WriteId writeId, Throwable cause) {
        super(13, message, cause);
        this.writeId = writeId;
    }

    /** The id the write went with (what a retry sends again as {@code Idempotency-Key}); null for another change. */
    public WriteId writeId() {
        return writeId;
    }
}
