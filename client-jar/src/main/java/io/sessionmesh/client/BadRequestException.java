package io.sessionmesh.client;

/** The sidecar refused the request as malformed (400, BAD_REQUEST): a bug in the caller or a version mismatch. */
public class BadRequestException extends SessionMeshException {
    private static final long serialVersionUID = 1L;

    public BadRequestException(String message) {
        super(4, message);
    }

    public BadRequestException(String message, Throwable cause) {
        super(4, message, cause);
    }
}
