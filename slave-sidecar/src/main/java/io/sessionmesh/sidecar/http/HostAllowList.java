package io.sessionmesh.sidecar.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The host names a sidecar answers to, checked on every request's {@code Host} header: the loopback names
 * ({@link #LOOPBACK_NAMES}), the address it is bound to (unless a wildcard), and {@code allowed-hosts}. A page in a
 * browser on the host that a DNS name pointed at 127.0.0.1 (DNS rebinding) sends its own name, never one of these, so
 * it is refused before any operation runs; a request with no Host header at all (HTTP/1.0) comes from no browser and
 * is let through. The port is not compared: a rebound name is a name the sidecar does not know, whatever the port.
 */
final class HostAllowList {
    /** Names every sidecar answers to: the loopback interface's. */
    static final List<String> LOOPBACK_NAMES = List.of("localhost", "127.0.0.1", "::1");

    private final Set<String> names;

    /**
     * @param binds the addresses the sidecar is bound to (wildcards such as 0.0.0.0 add nothing)
     * @param extra the {@code allowed-hosts} names (host names or addresses, no port)
     */
    HostAllowList(List<String> binds, List<String> extra) {
        Set<String> n = new LinkedHashSet<>(LOOPBACK_NAMES);
        for (String b : binds) {
            String h = normal(b);
            if (!h.isEmpty() && !h.equals("0.0.0.0") && !h.equals("::") && !h.equals("0:0:0:0:0:0:0:0")) {
                n.add(h);
            }
        }
        for (String e : extra) {
            String h = normal(e);
            if (!h.isEmpty()) {
                n.add(h);
            }
        }
        this.names = Set.copyOf(n);
    }

    /** Whether these headers name an allowed host, or no host at all. */
    boolean allows(HttpHeaders headers) {
        String host = headers.get(HttpHeaderNames.HOST);
        return host == null || names.contains(hostOf(host));
    }

    /** The message of a refusal: names the Host given and the setting that would allow it. */
    String refusal(HttpHeaders headers) {
        String host = headers.get(HttpHeaderNames.HOST);
        String shown = host.length() > 100 ? host.substring(0, 100) + "..." : host;
        StringBuilder printable = new StringBuilder(shown.length());
        shown.codePoints().forEach(c -> printable.appendCodePoint(c < 0x20 || c == 0x7f ? '?' : c));
        return "Host '" + printable + "' is not a name this sidecar answers to (" + String.join(", ", names)
                + "): a page that a DNS name pointed at this host is refused; add the name to allowed-hosts if it is "
                + "yours";
    }

    /** The names allowed, for the start-up line. */
    Set<String> names() {
        return names;
    }

    /** The host of a Host header: without its port, brackets or a trailing dot, in lower case. */
    static String hostOf(String header) {
        String h = header.trim();
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            h = end < 0 ? h.substring(1) : h.substring(1, end);
        } else {
            int colon = h.indexOf(':');
            if (colon >= 0 && colon == h.lastIndexOf(':')) {
                h = h.substring(0, colon);
            }
        }
        return normal(h);
    }

    private static String normal(String name) {
        String h = name.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }
}
