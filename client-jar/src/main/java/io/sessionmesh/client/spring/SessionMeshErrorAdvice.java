package io.sessionmesh.client.spring;

import io.sessionmesh.client.BadRequestException;
import io.sessionmesh.client.PayloadTooLargeException;
import io.sessionmesh.client.SessionConflictException;
import io.sessionmesh.client.SessionMeshException;
import io.sessionmesh.client.SessionNotFoundException;
import io.sessionmesh.client.SidecarTimeoutException;
import io.sessionmesh.client.SidecarUnavailableException;
import io.sessionmesh.client.WriteOutcomeUnknownException;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers the client's errors that reach a controller's caller with their HTTP status (a problem detail, RFC 9457):
 * no session 404, conflict 409, too large 413, sidecar unreachable 503, no answer in time 504, a change of unknown
 * outcome 504 with a detail that says it may have been saved and to reload before trying again. A 5xx's detail is a
 * fixed sentence per status (its message names sidecars, masters and their addresses), a 4xx's its message with any
 * address replaced; the whole message goes to the service's log under the incident id the answer carries. The lowest precedence: an application's own handlers win.
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
        } else if (e instanceof WriteOutcomeUnknownException) {
            status = HttpStatus.GATEWAY_TIMEOUT; // as a gateway whose upstream did not answer: the change may be done
        } else if (e instanceof SidecarUnavailableException) {
            status = HttpStatus.SERVICE_UNAVAILABLE;
        } else if (e instanceof SidecarTimeoutException) {
            status = HttpStatus.GATEWAY_TIMEOUT;
        } else if (e instanceof BadRequestException) {
            status = HttpStatus.INTERNAL_SERVER_ERROR; // our request to the sidecar was malformed: a bug here, not the caller's
        } else {
            status = HttpStatus.INTERNAL_SERVER_ERROR;
        }
        // The end user sees what happened, not where: the message names sidecars, masters and their addresses, so it
        // goes to this service's log under an incident id the answer carries.
        String incident = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() >>> 16);
        log.warn("session error, incident {}: answered {} for {}", incident, status.value(), e.toString());
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, e instanceof WriteOutcomeUnknownException
                ? OUTCOME_UNKNOWN_DETAIL : status.is5xxServerError() ? detail(status) : withoutAddresses(e.getMessage()));
        p.setTitle("session: " + e.getClass().getSimpleName());
        p.setProperty("incident", incident);
        return p;
    }

    /** Host names and addresses with a port, and URLs: what the caller's own mistakes (4xx) may not show either. */
    private static final java.util.regex.Pattern ADDRESS =
            java.util.regex.Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]*://\\S+|\\[[0-9a-fA-F:.]+\\](:\\d+)?|[A-Za-z0-9.-]+:\\d{2,5}\\b");

    /** A 4xx message (it says what was wrong with the request) with any address in it replaced. */
    static String withoutAddresses(String message) {
        return message == null ? "" : ADDRESS.matcher(message).replaceAll("<address>");
    }

    /**
     * What an end user is told when a change may or may not have been saved: the truth, and what to do first. "Try
     * again" would be wrong: the change may be there already, and sending it again blindly could do it twice.
     */
    static final String OUTCOME_UNKNOWN_DETAIL = "your change may or may not have been saved: reload the page to see"
            + " whether it was before you try it again";

    /** What an end user is told for a 5xx: never an address or an internal message. */
    static String detail(HttpStatus status) {
        return switch (status) {
            case NOT_FOUND -> "no such session: it expired, was deleted or never existed";
            case CONFLICT -> "the session changed meanwhile: read it again and retry";
            case PAYLOAD_TOO_LARGE -> "the session would be larger than the session store allows";
            case SERVICE_UNAVAILABLE -> "the session store is unavailable: try again shortly";
            case GATEWAY_TIMEOUT -> "the session store did not answer in time: try again";
            default -> "the session could not be handled (see the service's log for the incident)";
        };
    }

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SessionMeshErrorAdvice.class);
}
