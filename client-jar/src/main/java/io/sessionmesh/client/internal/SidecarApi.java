package io.sessionmesh.client.internal;

import io.sessionmesh.client.BadRequestException;
import io.sessionmesh.client.ClientMetrics;
import io.sessionmesh.client.PayloadTooLargeException;
import io.sessionmesh.client.SessionConflictException;
import io.sessionmesh.client.SessionIdOnAnotherMasterException;
import io.sessionmesh.client.SessionMeshException;
import io.sessionmesh.client.SessionNotFoundException;
import io.sessionmesh.client.SidecarTimeoutException;
import io.sessionmesh.client.SidecarUnavailableException;
import io.sessionmesh.client.TransportForm;
import io.sessionmesh.client.WriteOutcomeUnknownException;
import io.sessionmesh.wire.protocol.WriteId;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.CreateRequest;
import io.sessionmesh.wire.transport.ErrorMessage;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.RenameRequest;
import io.sessionmesh.wire.transport.SessionCreated;
import io.sessionmesh.wire.transport.SessionPrincipal;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;
import io.sessionmesh.wire.transport.TransportMessage;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The sidecar's REST API (PROTOCOL.md 4) in its binary or JSON form, as typed calls: every error status becomes its
 * subtype of {@link SessionMeshException}, with the sidecar's message. Thread-safe.
 */
public final class SidecarApi {
    static final String BINARY = "application/x-sessionmesh";
    static final String OCTETS = "application/octet-stream";

    private final SidecarHttp http;
    private final BinaryTransportCodec codec;
    private final JsonTransportCodec json;
    private final TransportForm form;
    /** The content type of session messages in {@link #form}. */
    private final String messages;
    private final ClientMetrics metrics;
    private final LongAdder calls = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();

    public SidecarApi(SidecarHttp http, BinaryTransportCodec codec, ClientMetrics metrics) {
        this(http, codec, TransportForm.BINARY, metrics);
    }

    public SidecarApi(SidecarHttp http, BinaryTransportCodec codec, TransportForm form, ClientMetrics metrics) {
        this.http = http;
        this.codec = codec;
        this.json = new JsonTransportCodec(codec.limits());
        this.form = form;
        this.messages = form.contentType();
        this.metrics = metrics;
    }

    public SessionCreated create(long idleTimeoutSeconds) {
        return create(idleTimeoutSeconds, null);
    }

    /**
     * A new session, belonging to {@code principal} (null: to no one).
     *
     * @throws BadRequestException or {@link PayloadTooLargeException} for a principal that breaks its rules, before
     *     anything is sent (the message never repeats the principal)
     */
    public SessionCreated create(long idleTimeoutSeconds, String principal) {
        if (principal != null) {
            checkPrincipal("create", principal);
        }
        byte[] body = idleTimeoutSeconds == 0 && principal == null ? null
                : encode("create", new CreateRequest(idleTimeoutSeconds, principal));
        return decode(call("create", "POST", "/v1/sessions", body, messages), SessionCreated.class);
    }

    /**
     * A new session with the id the application chose: POST /v1/sessions with CREATE_REQUEST's id.
     *
     * @throws BadRequestException for an id that breaks the rule of a requested id, before anything is sent (the
     *     message never repeats the id)
     */
    public SessionCreated create(String sessionId, long idleTimeoutSeconds, String principal) {
        if (principal != null) {
            checkPrincipal("create", principal);
        }
        checkRequestedId("create", sessionId);
        return decode(call("create", "POST", "/v1/sessions",
                encode("create", new CreateRequest(idleTimeoutSeconds, principal, sessionId)), messages), SessionCreated.class);
    }

    /**
     * Renames a session and/or sets its idle timeout: POST /v1/sessions/{id}/rename. {@code newId} null keeps the id,
     * {@code idleTimeoutSeconds} 0 keeps the timeout (not both).
     */
    public SessionCreated rename(String sessionId, String newId, long idleTimeoutSeconds) {
        if (newId != null) {
            checkRequestedId("rename", newId);
        }
        return decode(call("rename", "POST", "/v1/sessions/" + sessionId + "/rename",
                encode("rename", new RenameRequest(newId, idleTimeoutSeconds)), messages), SessionCreated.class);
    }

    private static void checkRequestedId(String operation, String id) {
        java.util.Objects.requireNonNull(id, "session id");
        try {
            TransportLimits.checkRequestedSessionId(id);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(operation + ": " + e.getMessage() + " (nothing was sent)", e);
        }
    }

    /** Sets the session's principal: PUT /v1/sessions/{id}/principal. */
    public void setPrincipal(String sessionId, String principal) {
        checkPrincipal("principal-set", principal);
        call("principal-set", "PUT", "/v1/sessions/" + sessionId + "/principal",
                encode("principal-set", new SessionPrincipal(sessionId, principal)), messages);
    }

    /** Clears the session's principal: DELETE /v1/sessions/{id}/principal. */
    public void clearPrincipal(String sessionId) {
        call("principal-clear", "DELETE", "/v1/sessions/" + sessionId + "/principal", null, messages);
    }

    /** The session's principal, or none: GET /v1/sessions/{id}/principal. */
    public SessionPrincipal principal(String sessionId) {
        return decode(call("principal-get", "GET", "/v1/sessions/" + sessionId + "/principal", null, messages),
                SessionPrincipal.class);
    }

    /** A principal breaking TransportLimits.checkPrincipal's rules fails as the sidecar would answer it: 413 or 400. */
    static void checkPrincipal(String operation, String principal) {
        java.util.Objects.requireNonNull(principal, "principal");
        try {
            TransportLimits.checkPrincipal(principal);
        } catch (IllegalArgumentException e) {
            String text = operation + ": " + e.getMessage() + " (nothing was sent)";
            throw principal.getBytes(StandardCharsets.UTF_8).length > TransportLimits.MAX_PRINCIPAL_BYTES
                    ? new PayloadTooLargeException(text, e) : new BadRequestException(text, e);
        }
    }

    public ReadResult read(String sessionId, List<String> sections) {
        String target = "/v1/sessions/" + sessionId + "?sections=" + String.join(",", escape(sections));
        return decode(call("read", "GET", target, null, messages), ReadResult.class);
    }

    public WriteResult write(WriteRequest request) {
        return write(encodeWrite(request), request.sessionId(), WriteId.next());
    }

    /** A write's body in this client's form, for {@link #write(byte[], String, WriteId)}. */
    public byte[] encodeWrite(WriteRequest request) {
        return encode("write", request);
    }

    /** Times a save whose outcome is unknown because the connection to the sidecar broke is sent again, at most. */
    public static final int MAX_WRITE_RETRIES = 1;
    /** The pause before that retry (a sidecar that restarts takes its connections with it). */
    public static final long WRITE_RETRY_PAUSE_MILLIS = 100;

    /**
     * PATCH of an encoded write under {@code writeId} ({@code Idempotency-Key}): a master applies a write of one id at
     * most once (PROTOCOL.md 3.12). A write whose connection to the sidecar broke after it was sent is sent again, with
     * the same id, at most {@link #MAX_WRITE_RETRIES} times; one that the sidecar answered OUTCOME_UNKNOWN (it tried
     * again itself) or that timed out here is not.
     *
     * @throws WriteOutcomeUnknownException when it may or may not have been applied: send it again with the same id
     */
    public WriteResult write(byte[] body, String sessionId, WriteId writeId) {
        for (int attempt = 0; ; attempt++) {
            try {
                return decode(call("write", "PATCH", "/v1/sessions/" + sessionId, body, messages, writeId), WriteResult.class);
            } catch (WriteOutcomeUnknownException e) {
                // only a broken connection (its cause): a timeout here or the sidecar's own OUTCOME_UNKNOWN (after its
                // retries) would most likely come again, and cost another request timeout
                if (attempt >= MAX_WRITE_RETRIES || !(e.getCause() instanceof java.io.IOException)) {
                    throw e;
                }
                pause();
            } catch (SidecarUnavailableException e) {
                if (attempt == 0) {
                    throw e; // not sent: the write was certainly not applied
                }
                // a retry that could not be sent leaves the first attempt's outcome as unknown as it was
                throw new WriteOutcomeUnknownException("write: sent, then the connection to the sidecar broke; sent again"
                        + " with the same write id, which failed (" + e.getMessage() + "): it may or may not have been"
                        + " applied", writeId, e);
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(WRITE_RETRY_PAUSE_MILLIS);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    public void touch(String sessionId) {
        call("touch", "POST", "/v1/sessions/" + sessionId + "/touch", null, messages);
    }

    public void delete(String sessionId) {
        call("delete", "DELETE", "/v1/sessions/" + sessionId, null, messages);
    }

    public void publishSchema(long uid, byte[] schema) {
        call("schema-publish", "PUT", "/v1/schemas/" + Long.toHexString(uid), schema, OCTETS);
    }

    /** The schema, or null when the registry has none. */
    public byte[] fetchSchema(long uid) {
        try {
            return call("schema-fetch", "GET", "/v1/schemas/" + Long.toHexString(uid), null, OCTETS).body();
        } catch (SessionNotFoundException e) {
            return null;
        }
    }

    /** Calls made, bytes of request bodies sent and of answer bodies received, since the client started. */
    public long calls() {
        return calls.sum();
    }

    public long bytesSent() {
        return bytesSent.sum();
    }

    public long bytesReceived() {
        return bytesReceived.sum();
    }

    private SidecarHttp.Response call(String operation, String method, String target, byte[] body, String contentType) {
        return call(operation, method, target, body, contentType, null);
    }

    private SidecarHttp.Response call(String operation, String method, String target, byte[] body, String contentType,
                                      WriteId writeId) {
        long start = System.nanoTime();
        int sent = body == null ? 0 : body.length;
        calls.increment();
        bytesSent.add(sent);
        SidecarHttp.Response r;
        try {
            r = http.exchange(method, target, contentType, body, contentType.equals(OCTETS) ? OCTETS + ", " + messages : messages,
                    writeId);
        } catch (SessionMeshException e) {
            metrics.call(operation, 0, System.nanoTime() - start, sent, 0);
            throw e;
        }
        bytesReceived.add(r.body().length);
        metrics.call(operation, r.status(), System.nanoTime() - start, sent, r.body().length);
        if (r.status() >= 300) {
            throw error(operation, r, writeId);
        }
        return r;
    }

    /** A request in this client's form; one over a limit fails here, before anything is sent. */
    private byte[] encode(String operation, TransportMessage message) {
        try {
            return form == TransportForm.JSON ? json.encode(message) : codec.encode(message);
        } catch (MalformedMessageException e) {
            String text = operation + ": " + e.getMessage() + " (nothing was sent)";
            throw e.status() == Status.TOO_LARGE ? new PayloadTooLargeException(text, e) : new BadRequestException(text, e);
        }
    }

    private <T extends TransportMessage> T decode(SidecarHttp.Response r, Class<T> type) {
        try {
            return form == TransportForm.JSON ? json.decode(r.body(), type) : codec.decode(r.body(), type);
        } catch (MalformedMessageException e) {
            throw new SessionMeshException(Status.BAD_REQUEST, "the sidecar's answer is not a valid "
                    + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    private SessionMeshException error(String operation, SidecarHttp.Response r, WriteId writeId) {
        ErrorMessage error = errorMessage(r);
        String message = error != null ? error.message() : message(r);
        String text = operation + ": " + r.status() + " " + message;
        if (error != null && error.status() == Status.OUTCOME_UNKNOWN) {
            return new WriteOutcomeUnknownException(text, writeId);
        }
        return switch (r.status()) {
            case 404 -> new SessionNotFoundException(text);
            case 409 -> message.contains(RenameRequest.NEW_ID_ON_ANOTHER_MASTER)
                    ? new SessionIdOnAnotherMasterException(text) : new SessionConflictException(text);
            case 413 -> new PayloadTooLargeException(text);
            case 400, 405, 408 -> new BadRequestException(text); // 408: the request's body came in too slowly
            case 503 -> new SidecarUnavailableException(text);
            case 504 -> new SidecarTimeoutException(text);
            default -> new SessionMeshException(Status.INTERNAL, text);
        };
    }

    /** The error body, when it is one in either form; null otherwise. */
    private ErrorMessage errorMessage(SidecarHttp.Response r) {
        try {
            if (r.contentType() != null && r.contentType().startsWith(BINARY)) {
                return codec.decode(r.body(), ErrorMessage.class);
            }
            if (r.contentType() != null && r.contentType().startsWith(TransportForm.JSON.contentType())) {
                return json.decode(r.body(), ErrorMessage.class);
            }
        } catch (MalformedMessageException e) {
            return null;
        }
        return null;
    }

    private String message(SidecarHttp.Response r) {
        if (r.contentType() != null && r.contentType().startsWith(BINARY)) {
            try {
                return codec.decode(r.body(), ErrorMessage.class).message();
            } catch (MalformedMessageException e) {
                return "(undecodable error body)";
            }
        }
        if (r.contentType() != null && r.contentType().startsWith(TransportForm.JSON.contentType())) {
            try {
                return json.decode(r.body(), ErrorMessage.class).message();
            } catch (MalformedMessageException e) {
                return new String(r.body(), StandardCharsets.UTF_8);
            }
        }
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    /** Section names are URL-encoded in the query (a comma inside a name would split it). */
    private static List<String> escape(List<String> names) {
        List<String> out = new ArrayList<>(names.size());
        for (String n : names) {
            out.add(isUnreserved(n) ? n : java.net.URLEncoder.encode(n, StandardCharsets.UTF_8));
        }
        return out;
    }

    /** Whether a name needs no escaping in a query (RFC 3986 unreserved characters only): the common case, no copy. */
    static boolean isUnreserved(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
                    || c == '~')) {
                return false;
            }
        }
        return true;
    }
}
