package io.sessionmesh.client;

/** The session is unknown, deleted or expired (404, NOT_FOUND). */
public class SessionNotFoundException extends SessionMeshException {
    private static final long serialVersionUID = 1L;

    public SessionNotFoundException(String message) {
        super(1, message);
    }

    public SessionNotFoundException(String message, Throwable cause) {
        super(1, message, cause);
    }
}
