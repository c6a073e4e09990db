package io.sessionmesh.client;

/**
 * Where the client reports what it does, for metrics: every call to the sidecar and every value that failed to
 * decode. The Spring integration binds it to Micrometer when Micrometer is present; {@link #NONE} otherwise.
 * Implementations must be fast and thread-safe: they run on the caller's thread.
 */
public interface ClientMetrics {
    /** Reports nothing. */
    ClientMetrics NONE = new ClientMetrics() {
    };

    /**
     * One call to the sidecar.
     *
     * @param operation create, read, write, touch, delete, schema-publish, schema-fetch
     * @param httpStatus the answer's HTTP status, or 0 when there was none (unreachable, timeout)
     */
    default void call(String operation, int httpStatus, long nanos, long bytesSent, long bytesReceived) {
    }

    /**
     * One save sent its deltas: {@code deltaBytes} value bytes of the attributes that changed, where writing the
     * whole sections touched would have sent {@code wholeSectionBytes} (every attribute's stored or new bytes). The
     * difference is what saving deltas saved on the wire to the sidecar and on to the master.
     */
    default void saved(int sections, long deltaBytes, long wholeSectionBytes) {
    }

    /** A value could not be decoded (it stays bytes; the rest of the session is unaffected). */
    default void decodeFailure(String section, String attribute, RuntimeException error) {
    }
}
