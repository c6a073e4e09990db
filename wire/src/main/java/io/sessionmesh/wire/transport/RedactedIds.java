package io.sessionmesh.wire.transport;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Session ids as logs and messages may show them: a session id is a bearer secret (whoever has it may use the
 * session), so it never appears whole in a log line or an error message that may be logged. The same short hash as
 * the master's {@code SessionIds.redact}, so that one session's lines can still be followed across a sidecar's and a
 * master's logs.
 */
public final class RedactedIds {
    /** A session id in a path ({@code /sessions/{id}}) or a query ({@code session={id}}). */
    private static final Pattern ID_IN_TARGET = Pattern.compile("(/sessions/|[?&]session=)([A-Za-z0-9_-]+)");

    private RedactedIds() {
    }

    /** A form of an id fit for logs: a short hash, never the id itself. */
    public static String redact(String id) {
        return id == null ? "null" : "#" + Integer.toHexString(id.hashCode() * 0x9E3779B9);
    }

    /** A request target (path and query) with every session id in it redacted, for logs. */
    public static String redactTarget(String target) {
        if (target == null) {
            return "null";
        }
        Matcher m = ID_IN_TARGET.matcher(target);
        StringBuilder out = new StringBuilder(target.length());
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + redact(m.group(2))));
        }
        m.appendTail(out);
        return out.toString();
    }
}
