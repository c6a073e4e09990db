package io.sessionmesh.client;

/** A section changed since it was read, and the save asked for that not to happen (409, CONFLICT): nothing of the save was applied; read the session again. */
public class SessionConflictException extends SessionMeshException {
    private static final long serialVersionUID = 1L;

    public SessionConflictException(String message) {
        super(2, message);
    }

    public SessionConflictException(String message, Throwable cause) {
        super(2, message, cause);
    }
}
