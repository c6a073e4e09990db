package io.sessionmesh.master.store;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Session ids made by the master: {@value #RANDOM_BYTES} bytes (128 bits) from {@link SecureRandom}, as
 * URL-safe base64 without padding: 22 characters of {@code [A-Za-z0-9_-]}, so an id goes into a URL path
 * unescaped. An id is a bearer secret: it is never logged whole (see {@link #redact}).
 */
public final class SessionIds {
    /** Random bytes in an id. */
    public static final int RANDOM_BYTES = 16;
    /** Characters of an id. */
    public static final int LENGTH = 22;

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private final SecureRandom random = new SecureRandom();

    /** A new random id. Thread-safe. */
    public String next() {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return ENCODER.encodeToString(bytes);
    }

    /** A form of an id fit for logs: a short hash, never the id itself. */
    public static String redact(String id) {
        return id == null ? "null" : "#" + Integer.toHexString(id.hashCode() * 0x9E3779B9);
    }
}
