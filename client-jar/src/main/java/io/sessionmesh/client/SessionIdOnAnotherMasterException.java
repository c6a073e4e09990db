package io.sessionmesh.client;

/**
 * A rename's new id belongs to another master than the session's (409, CONFLICT): a rename cannot be atomic across
 * masters, so nothing was applied and the session keeps its id. Unlike its parent (the new id is taken), a fresh id may
 * well succeed: choose another and rename again.
 */
public class SessionIdOnAnotherMasterException extends SessionConflictException {
    private static final long serialVersionUID = 1L;

    public SessionIdOnAnotherMasterException(String message) {
        super(message);
    }
}
