package io.sessionmesh.sidecar.http;

import io.sessionmesh.wire.transport.Status;

import io.netty.handler.codec.http.HttpResponseStatus;

/** The HTTP status for each {@link Status} code (the table of PROTOCOL.md 2.3). */
public final class HttpStatuses {
    private HttpStatuses() {
    }

    public static HttpResponseStatus of(int status) {
        return switch (status) {
            case Status.OK -> HttpResponseStatus.OK;
            case Status.NOT_FOUND -> HttpResponseStatus.NOT_FOUND;
            case Status.CONFLICT -> HttpResponseStatus.CONFLICT;
            case Status.TOO_LARGE -> HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
            case Status.BAD_REQUEST, Status.UNSUPPORTED_VERSION -> HttpResponseStatus.BAD_REQUEST;
            case Status.UNAVAILABLE, Status.NOT_LEADER, Status.MOVED, Status.MOVING -> HttpResponseStatus.SERVICE_UNAVAILABLE;
            // A gateway that got no answer in time, or whose upstream connection broke after the request went: 504 in
            // both cases, since the write may have been applied; the body's code tells OUTCOME_UNKNOWN from TIMEOUT.
            case Status.TIMEOUT, Status.OUTCOME_UNKNOWN -> HttpResponseStatus.GATEWAY_TIMEOUT;
            case Status.FORBIDDEN -> HttpResponseStatus.BAD_GATEWAY; // a master refused this sidecar, not the caller
            default -> HttpResponseStatus.INTERNAL_SERVER_ERROR;
        };
    }
}
