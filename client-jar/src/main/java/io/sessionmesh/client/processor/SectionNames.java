package io.sessionmesh.client.processor;

import java.nio.charset.StandardCharsets;

/**
 * The rule for a section name that {@code @SessionSections} may list, in one place for the processor (at compile time)
 * and for {@link SectionIndex}'s reading of the annotation at run time; no {@code javax.annotation.processing} here,
 * so that a service's runtime never loads the compiler's classes.
 */
public final class SectionNames {
    /** The longest section name, in bytes of UTF-8 (the wire's limit). */
    static final int MAX_NAME_BYTES = 255; // the wire's TransportLimits.MAX_NAME_BYTES, without loading the wire at compile time

    private SectionNames() {
    }

    /** Why a name is not a valid section name, or null. */
    public static String problem(String name) {
        if (name.isBlank()) {
            return "is blank";
        }
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_NAME_BYTES) {
            return "is " + bytes + " bytes of UTF-8; a section name has at most " + MAX_NAME_BYTES;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
                return "has a control character at index " + i;
            }
            if (Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1))) {
                i++; // a pair: one code point
            } else if (Character.isSurrogate(c)) {
                return "has an unpaired surrogate at index " + i;
            }
            if (c == ',') {
                return "has a comma, which the REST API uses to list section names";
            }
        }
        return null;
    }

}
