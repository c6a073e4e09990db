package io.sessionmesh.client;

/**
 * 409, CONFLICT: nothing was applied. On a save, a section changed since it was read and the save asked for that not to
 * happen: read the session again. On {@link SessionMeshClient#createSession(String, java.time.Duration, String)} or
 * {@link SessionMeshClient#renameSession}, a live session has the id asked for; the subclass
 * {@link SessionIdOnAnotherMasterException} says a rename's new id is on another master (choose another id).
 */
public class SessionConflictException extends SessionMeshException {
    private static final long serialVersionUID = 1L;

    public SessionConflictException(String message) {
        super(2, message);
    }

    public SessionConflictException(String message, Throwable cause) {
        super(2, message, cause);
    }
}
