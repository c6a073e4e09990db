package io.sessionmesh.client;

/** The sidecar cannot be reached, or it cannot reach a master (503, UNAVAILABLE). */
public class SidecarUnavailableException extends SessionMeshException {
    private static final long serialVersionUID = 1L;

    public SidecarUnavailableException(String message) {
        super(5, message);
    }

    public SidecarUnavailableException(String message, Throwable cause) {
        super(5, message, cause);
    }
}
