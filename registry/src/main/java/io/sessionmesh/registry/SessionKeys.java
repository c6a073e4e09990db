package io.sessionmesh.registry;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Objects;

/**
 * What the registry keys a session's row by instead of its id: HMAC-SHA256 of the id under the
 * {@code registry-id-key}, as unpadded base64url ({@value #KEY_CHARS} characters). A session id is a bearer secret;
 * the registry's readers, its DBAs and its backups hold only these, from which no id can be had, and which nobody
 * without the key can compute for an id they guess either. The masters (which write rows) and the sidecars (whose
 * admin lookup takes an id) share the key. Thread-safe.
 */
public final class SessionKeys {
    /** The algorithm. */
    public static final String ALGORITHM = "HmacSHA256";
    /** Characters of a row key: 32 bytes as unpadded base64url. */
    public static final int KEY_CHARS = 43;

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private final SecretKeySpec key;
    private final ThreadLocal<Mac> macs;

    /** @param secret the {@code registry-id-key} (its UTF-8 bytes are the HMAC key) */
    public SessionKeys(String secret) {
        Objects.requireNonNull(secret, "secret");
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
        this.macs = ThreadLocal.withInitial(this::newMac);
        newMac(); // fails here, at start, if the JDK lacks the algorithm
    }

    private Mac newMac() {
        try {
            Mac m = Mac.getInstance(ALGORITHM);
            m.init(key);
            return m;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available: " + e.getMessage(), e);
        }
    }

    /** The row key of a session id. */
    public String of(String sessionId) {
        Mac m = macs.get();
        return ENCODER.encodeToString(m.doFinal(sessionId.getBytes(StandardCharsets.UTF_8)));
    }
}
