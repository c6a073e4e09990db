package io.sessionmesh.benchmarks.http;

import io.netty.handler.codec.http.HttpMethod;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The end-user requests the benchmark sends, the same to both apps: the write flow (the issue's: the draft, three
 * sections read and one attribute written), the read flow (the offer page, three sections read) and the floor (the
 * offer's answer with no session, sent with a session id all the same).
 */
enum Flow {
    /** PUT /deposits/draft with a JSON body: an amount and one of the offered terms. */
    WRITE("write", HttpMethod.PUT, "/deposits/draft"),
    /** GET /deposits/offer. */
    READ("read", HttpMethod.GET, "/deposits/offer"),
    /** GET /deposits/floor: no session use at all. */
    FLOOR("floor", HttpMethod.GET, "/deposits/floor");

    /** The terms both apps offer rates for (months). */
    private static final int[] TERMS = {3, 6, 12};

    private final String label;
    private final HttpMethod method;
    private final String path;

    Flow(String label, HttpMethod method, String path) {
        this.label = label;
        this.method = method;
        this.path = path;
    }

    static Flow of(String label) {
        for (Flow f : values()) {
            if (f.label.equals(label)) {
                return f;
            }
        }
        throw new IllegalArgumentException("no flow " + label);
    }

    String label() {
        return label;
    }

    HttpMethod method() {
        return method;
    }

    String path() {
        return path;
    }

    /** The request's body: JSON for the write flow, none for the others. */
    byte[] body(SplittableRandom random) {
        if (this != WRITE) {
            return null;
        }
        return ("{\"amount\":" + (1_000 + random.nextInt(99_000)) + ",\"months\":" + TERMS[random.nextInt(TERMS.length)] + "}")
                .getBytes(StandardCharsets.US_ASCII);
    }
}
