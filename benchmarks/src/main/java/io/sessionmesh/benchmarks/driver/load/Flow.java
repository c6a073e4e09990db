package io.sessionmesh.benchmarks.driver.load;

import io.netty.handler.codec.http.HttpMethod;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The end-user requests of the flows plan, the same to every app: the write flow (the draft: three sections read and
 * one attribute written), the read flow (the offer page, three sections read), the floor (the offer's answer made
 * without the session, asked without a session id: HTTP, MVC and JSON only), and the same endpoint asked with a
 * session id, as a browser sends its session cookie on every request: what a request that does not use the session
 * costs when it names one (Spring MVC's SessionFlashMapManager asks for the session on every request, and Spring
 * Session then loads it and saves its last access time).
 */
public enum Flow {
    /** PUT /deposits/draft with a JSON body: an amount and one of the offered terms. */
    WRITE("write", HttpMethod.PUT, "/deposits/draft", true),
    /** GET /deposits/offer. */
    READ("read", HttpMethod.GET, "/deposits/offer", true),
    /** GET /deposits/floor without a session id: no session at all. */
    FLOOR("floor", HttpMethod.GET, "/deposits/floor", false),
    /** GET /deposits/floor with a session id the endpoint does not use. */
    FLOOR_SESSION("floor-session", HttpMethod.GET, "/deposits/floor", true);

    /** Every flow's label, in the default order of a run. */
    public static final List<String> LABELS = List.of("floor", "floor-session", "read", "write");

    /** The terms every app offers rates for (months). */
    private static final int[] TERMS = {3, 6, 12};

    private final String label;
    private final HttpMethod method;
    private final String path;
    private final boolean sendsSession;

    Flow(String label, HttpMethod method, String path, boolean sendsSession) {
        this.label = label;
        this.method = method;
        this.path = path;
        this.sendsSession = sendsSession;
    }

    public static Flow of(String label) {
        for (Flow f : values()) {
            if (f.label.equals(label)) {
                return f;
            }
        }
        throw new IllegalArgumentException("no flow " + label);
    }

    public String label() {
        return label;
    }

    public HttpMethod method() {
        return method;
    }

    public String path() {
        return path;
    }

    /** Whether the request names a session. */
    public boolean sendsSession() {
        return sendsSession;
    }

    /** The request's body: JSON for the write flow, none for the others. */
    public byte[] body(SplittableRandom random) {
        if (this != WRITE) {
            return null;
        }
        return ("{\"amount\":" + (1_000 + random.nextInt(99_000)) + ",\"months\":" + TERMS[random.nextInt(TERMS.length)] + "}")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** The flow's traffic on one host: each request names a session of {@code sessions} picked uniformly. */
    public Request.Traffic traffic(List<String> sessions) {
        return random -> Request.of(label, method, path, 0, sendsSession ? sessions.get(random.nextInt(sessions.size())) : null,
                body(random));
    }
}
