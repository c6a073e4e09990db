package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.metrics.SidecarMetrics;
import io.sessionmesh.sidecar.service.SidecarService;
import io.sessionmesh.wire.transport.ErrorMessage;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpContentException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletionException;

/**
 * The answer for a failed request: its HTTP status (the table of PROTOCOL.md 2.3, {@link HttpStatuses}) and an
 * ERROR message that names the problem, in the form the request asked for. 404 and 405 come from the route table;
 * every other failure has a {@link Status}, read by {@link SidecarService#status(Throwable)}. Only a failure with
 * no status of its own (a bug) is 500, and only that one is logged.
 */
final class ErrorResponses {
    private static final Logger log = LoggerFactory.getLogger(ErrorResponses.class);

    private final MessageForms forms;
    private final SidecarMetrics metrics;

    /**
     * @param metrics counts the answers by status (not the route table's 404 and 405: they reach no operation)
     */
    ErrorResponses(MessageForms forms, SidecarMetrics metrics) {
        this.forms = forms;
        this.metrics = metrics;
    }

    /**
     * The failure of a request the HTTP decoder could not read: 413 for a body over max-body, 503 for one over the
     * body budget (answered with Retry-After), the status the API's decoder refused it with
     * ({@link HttpRequestRejected}: 400, 408, 411, 414, 417, 431, 501, 505), else 400.
     */
    static RuntimeException undecodable(DecoderResult result) {
        Throwable cause = result.cause();
        if (cause instanceof BodyBudget.Exhausted) {
            return new RetryLater("HTTP request: " + cause.getMessage());
        }
        if (cause instanceof HttpRequestRejected rejected) {
            return new Rejected(rejected.status(), "HTTP request: " + cause.getMessage());
        }
        return new MalformedMessageException(cause instanceof TooLongHttpContentException ? Status.TOO_LARGE
                : Status.BAD_REQUEST, "HTTP request: " + cause.getMessage());
    }

    /** The answer for a failure, a future's (wrapped in a CompletionException) or a thrown one. */
    FullHttpResponse of(Throwable error, boolean binaryAnswer) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof ApiRoutes.NotFound nf) {
            return body(HttpResponseStatus.NOT_FOUND, Status.NOT_FOUND, nf.getMessage(), binaryAnswer);
        }
        if (cause instanceof ApiRoutes.MethodNotAllowed m) {
            // The wire has no status for a method: BAD_REQUEST in the body, 405 and Allow in HTTP.
            FullHttpResponse r = body(HttpResponseStatus.METHOD_NOT_ALLOWED, Status.BAD_REQUEST, m.getMessage(), binaryAnswer);
            r.headers().set(HttpHeaderNames.ALLOW, m.allow());
            return r;
        }
        if (cause instanceof Rejected rejected) {
            int status = rejected.status.code() == 505 ? Status.UNSUPPORTED_VERSION
                    : rejected.status.code() == 414 || rejected.status.code() == 431 ? Status.TOO_LARGE : Status.BAD_REQUEST;
            metrics.error(status);
            return body(rejected.status, status, rejected.getMessage(), binaryAnswer);
        }
        if (cause instanceof RetryLater) {
            metrics.error(Status.UNAVAILABLE);
            FullHttpResponse r = body(HttpResponseStatus.SERVICE_UNAVAILABLE, Status.UNAVAILABLE, cause.getMessage(), binaryAnswer);
            r.headers().set(HttpHeaderNames.RETRY_AFTER, BodyBudget.RETRY_AFTER_SECONDS);
            return r;
        }
        int status = SidecarService.status(cause);
        if (status == Status.INTERNAL) {
            log.error("request failed", cause);
        }
        metrics.error(status);
        return body(HttpStatuses.of(status), status, cause.getMessage() == null ? cause.toString() : cause.getMessage(),
                binaryAnswer);
    }

    /** A request refused for a while, not for what it says: 503 UNAVAILABLE with Retry-After. */
    static final class RetryLater extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RetryLater(String message) {
            super(message, null, false, false);
        }
    }

    /** A request the API's decoder refused: its own HTTP status; in the body BAD_REQUEST, TOO_LARGE or UNSUPPORTED_VERSION. */
    static final class Rejected extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final transient HttpResponseStatus status;

        Rejected(HttpResponseStatus status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    private FullHttpResponse body(HttpResponseStatus http, int status, String message, boolean binaryAnswer) {
        return forms.answer(http, ErrorMessage.of(status, message), binaryAnswer);
    }
}
