package io.sessionmesh.registry;

import java.io.IOException;
import java.io.Writer;

/**
 * PostgreSQL's COPY text format: columns separated by a tab, rows by a newline, {@code \N} for null, and a
 * backslash escaping a backslash and every control character (a principal may be any UTF-8 text, and one with a
 * tab or a backslash must not shift or merge columns).
 */
final class CopyText {
    private CopyText() {
    }

    /** Writes one column's value, escaped; null as {@code \N}. */
    static void value(Writer out, String value) throws IOException {
        if (value == null) {
            out.write("\\N");
            return;
        }
        value = storable(value);
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            String escape = switch (ch) {
                case '\\' -> "\\\\";
                case '\t' -> "\\t";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\b' -> "\\b";
                case '\f' -> "\\f";
                case '\u000b' -> "\\v";
                default -> ch < 0x20 || ch == 0x7f ? String.format("\\x%02x", (int) ch) : null;
            };
            if (escape != null) {
                out.write(value, start, i - start);
                out.write(escape);
                start = i + 1;
            }
        }
        out.write(value, start, value.length() - start);
    }

    /**
     * The text PostgreSQL can store: a NUL character, which no text column can hold, becomes U+FFFD. The master sends
     * no control characters; this keeps one that slipped through from failing every batch and re-sync after it.
     */
    static String storable(String value) {
        return value == null || value.indexOf('\0') < 0 ? value : value.replace('\0', '\uFFFD');
    }

    /** Writes a number column. */
    static void value(Writer out, long value) throws IOException {
        out.write(Long.toString(value));
    }
}
