package io.sessionmesh.client.spring;

import io.sessionmesh.client.BadRequestException;
import io.sessionmesh.client.PayloadTooLargeException;
import io.sessionmesh.client.SessionConflictException;
import io.sessionmesh.client.SessionMeshException;
import io.sessionmesh.client.SessionNotFoundException;
import io.sessionmesh.client.SidecarTimeoutException;
import io.sessionmesh.client.SidecarUnavailableException;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers the client's errors that reach a controller's caller with their HTTP status (a problem detail, RFC 9457):
 * no session 404, conflict 409, too large 413, sidecar unreachable 503, no answer in time 504. The lowest precedence:
 * an application's own handlers win.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class SessionMeshErrorAdvice {
    @ExceptionHandler(SessionMeshException.class)
    public ProblemDetail handle(SessionMeshException e) {
        HttpStatus status;
        if (e instanceof SessionNotFoundException) {
            status = HttpStatus.NOT_FOUND;
        } else if (e instanceof SessionConflictException) {
            status = HttpStatus.CONFLICT;
        } else if (e instanceof PayloadTooLargeException) {
            status = HttpStatus.PAYLOAD_TOO_LARGE;
        } else if (e instanceof SidecarUnavailableException) {
            status = HttpStatus.SERVICE_UNAVAILABLE;
        } else if (e instanceof SidecarTimeoutException) {
            status = HttpStatus.GATEWAY_TIMEOUT;
        } else if (e instanceof BadRequestException) {
            status = HttpStatus.INTERNAL_SERVER_ERROR; // our request to the sidecar was malformed: a bug here, not the caller's
        } else {
            status = HttpStatus.INTERNAL_SERVER_ERROR;
        }
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, e.getMessage());
        p.setTitle("session: " + e.getClass().getSimpleName());
        return p;
    }
}
