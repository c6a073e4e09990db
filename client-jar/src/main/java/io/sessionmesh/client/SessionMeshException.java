package io.sessionmesh.client;

/**
 * The base of every error the client raises. Unchecked: a session store that cannot answer is an exceptional
 * condition for a request, not a value to test at every call. Subtypes say which condition; {@link #status()} is
 * the SessionMesh status code behind it (PROTOCOL.md 2.3), or -1 when the sidecar gave none.
 */
public class SessionMeshException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    public SessionMeshException(int status, String message) {
        super(message);
        this.status = status;
    }

    public SessionMeshException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The status code behind the error, or -1. */
    public int status() {
        return status;
    }
}
