package io.sessionmesh.serialization.transport;

import java.nio.charset.StandardCharsets;

/** The rules for session ids and for section and attribute names (see {@link TransportLimits}). */
public final class Names {
    private Names() {
    }

    /**
     * Checks a session id: 1..128 characters of {@code [A-Za-z0-9_-]}.
     *
     * @throws MalformedMessageException (BAD_REQUEST) naming the id
     */
    public static String checkSessionId(String id) {
        if (id == null || id.isEmpty() || id.length() > TransportLimits.MAX_SESSION_ID_BYTES) {
            throw MalformedMessageException.badRequest("session id must be 1.." + TransportLimits.MAX_SESSION_ID_BYTES
                    + " characters: " + describe(id));
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                throw MalformedMessageException.badRequest("session id may hold only [A-Za-z0-9_-]: " + describe(id));
            }
        }
        return id;
    }

    /**
     * Checks a section or attribute name: 1..255 bytes of UTF-8, no control characters.
     *
     * @param what "section name" or "attribute name", for the message
     */
    public static String checkName(String name, String what) {
        if (name == null || name.isEmpty()) {
            throw MalformedMessageException.badRequest(what + " must not be empty");
        }
        int bytes = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                throw MalformedMessageException.badRequest(what + " holds control character U+"
                        + String.format("%04X", (int) c) + ": " + describe(name));
            }
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        if (bytes > TransportLimits.MAX_NAME_BYTES) {
            throw MalformedMessageException.badRequest(what + " has " + bytes + " UTF-8 bytes, over "
                    + TransportLimits.MAX_NAME_BYTES + ": " + describe(name));
        }
        if (name.length() != name.getBytes(StandardCharsets.UTF_8).length && hasLoneSurrogate(name)) {
            throw MalformedMessageException.badRequest(what + " holds an unpaired surrogate: " + describe(name));
        }
        return name;
    }

    private static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return true;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** A value for an error message: quoted, cut to 64 characters. */
    static String describe(String s) {
        if (s == null) {
            return "null";
        }
        return s.length() <= 64 ? '"' + s + '"' : '"' + s.substring(0, 64) + "...\" (" + s.length() + " characters)";
    }
}
