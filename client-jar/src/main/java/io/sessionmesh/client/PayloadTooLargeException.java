package io.sessionmesh.client;

/** A value, a section, a session or a request is over a limit of the sidecar or the master (413, TOO_LARGE): nothing of it was applied. */
public class PayloadTooLargeException extends SessionMeshException {
    private static final long serialVersionUID = 1L;

    public PayloadTooLargeException(String message) {
        super(3, message);
    }

    public PayloadTooLargeException(String message, Throwable cause) {
        super(3, message, cause);
    }
}
