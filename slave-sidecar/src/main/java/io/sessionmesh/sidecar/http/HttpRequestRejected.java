package io.sessionmesh.sidecar.http;

import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Why {@link ApiRequestDecoder} refused a request's head, with the HTTP status that says it (400, 411, 414, 417, 431,
 * 501, 505): the failure of a failed request, answered in its turn, after which the connection closes.
 */
final class HttpRequestRejected extends DecoderException {
    private static final long serialVersionUID = 1L;

    private final transient HttpResponseStatus status;

    HttpRequestRejected(HttpResponseStatus status, String message) {
        super(message);
        this.status = status;
    }

    HttpResponseStatus status() {
        return status;
    }

    /** No stack: a refusal is an answer, not a bug. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
