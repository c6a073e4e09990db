package io.sessionmesh.client;

/** No answer in time: from the sidecar, or the sidecar got none from its master (504, TIMEOUT). */
public class SidecarTimeoutException extends SessionMeshException {
    private static final long serialVersionUID = 1L;

    public SidecarTimeoutException(String message) {
        super(6, message);
    }

    public SidecarTimeoutException(String message, Throwable cause) {
        super(6, message, cause);
    }
}
