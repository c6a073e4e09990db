package io.sessionmesh.settings;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;

/**
 * Durations and sizes with units, as config files and flags write them: {@code 500ms}, {@code 30s},
 * {@code 5m}, {@code 2h}, {@code 1d}; {@code 512}, {@code 64k}, {@code 16m}, {@code 2g} (binary: 1k = 1024
 * bytes; {@code kb}, {@code kib}, {@code mb}, {@code mib} ... are accepted too). A bare number is seconds for
 * a duration and bytes for a size; addresses are {@code host:port}. Errors name the value and what a valid one
 * looks like.
 */
public final class Units {
    private Units() {
    }

    /** Parses a duration such as {@code 30s}; never negative. */
    public static Duration parseDuration(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        int split = unitStart(s);
        long n = number(text, s.substring(0, split), "duration");
        String unit = s.substring(split).trim();
        try {
            return switch (unit) {
                case "ms" -> Duration.ofMillis(n);
                case "", "s" -> Duration.ofSeconds(n);
                case "m", "min" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> throw new IllegalArgumentException("duration " + quote(text)
                        + " has an unknown unit " + quote(unit) + "; use ms, s, m, h or d (e.g. 30s)");
            };
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("duration " + quote(text) + " is too long");
        }
    }

    /** Parses a size such as {@code 64m} into bytes; never negative. */
    public static long parseSize(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        int split = unitStart(s);
        long n = number(text, s.substring(0, split), "size");
        String unit = s.substring(split).trim();
        int shift = switch (unit) {
            case "", "b" -> 0;
            case "k", "kb", "kib" -> 10;
            case "m", "mb", "mib" -> 20;
            case "g", "gb", "gib" -> 30;
            case "t", "tb", "tib" -> 40;
            default -> throw new IllegalArgumentException("size " + quote(text) + " has an unknown unit "
                    + quote(unit) + "; use k, m, g or t (binary: 1k = 1024 bytes, e.g. 64m)");
        };
        if (n > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException("size " + quote(text) + " is too large");
        }
        return n << shift;
    }

    /** The shortest exact form of a duration in the units above: {@code 300s} is written {@code 5m}. */
    public static String formatDuration(Duration d) {
        long ms = d.toMillis();
        if (ms == 0 || ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        if (s % 86_400 == 0) {
            return s / 86_400 + "d";
        }
        if (s % 3600 == 0) {
            return s / 3600 + "h";
        }
        if (s % 60 == 0) {
            return s / 60 + "m";
        }
        return s + "s";
    }

    /** The shortest exact form of a size: {@code 1048576} is written {@code 1m}. */
    public static String formatSize(long bytes) {
        String[] units = {"", "k", "m", "g", "t"};
        int i = 0;
        long n = bytes;
        while (n != 0 && i < units.length - 1 && (n & 1023) == 0) {
            n >>= 10;
            i++;
        }
        return n + units[i];
    }

    /** Parses {@code host:port} (a name or an IPv4 address, or an IPv6 address in brackets) into an unresolved address. */
    public static InetSocketAddress parseHostPort(String text) {
        String hp = text.trim();
        int colon = hp.lastIndexOf(':');
        if (hp.isEmpty() || colon <= 0 || colon == hp.length() - 1) {
            throw new IllegalArgumentException(quote(hp) + " is not host:port");
        }
        int port;
        try {
            port = Integer.parseInt(hp.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(quote(hp) + " has no port number");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " of " + quote(hp) + " is outside 1..65535");
        }
        String host = hp.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return InetSocketAddress.createUnresolved(host, port);
    }

    private static int unitStart(String s) {
        int i = 0;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '_')) {
            i++;
        }
        return i;
    }

    private static long number(String text, String digits, String what) {
        String d = digits.replace("_", "");
        if (d.isEmpty()) {
            throw new IllegalArgumentException(what + " " + quote(text) + " does not start with a whole number");
        }
        try {
            return Long.parseLong(d);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " " + quote(text) + " is too large");
        }
    }

    private static String quote(String s) {
        return '"' + s + '"';
    }
}
