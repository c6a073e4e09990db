package io.sessionmesh.wire.transport;

import java.util.Objects;

/**
 * Size limits of transport messages, and the rules for names. Immutable; {@link #builder()} or
 * {@link #DEFAULT}. Both codecs check every limit when decoding, before allocating anything sized by the
 * input, and when encoding, so that a peer with the same limits never receives a message it must refuse.
 * A length or count above its limit is {@link Status#TOO_LARGE}.
 *
 * <table>
 *   <caption>Limits and defaults</caption>
 *   <tr><th>limit</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>maxAttributeValueBytes</td><td>{@value #DEFAULT_MAX_ATTRIBUTE_VALUE_BYTES} (1 MiB)</td>
 *       <td>one attribute value (already serialized and compressed by the client)</td></tr>
 *   <tr><td>maxAttributesPerSection</td><td>{@value #DEFAULT_MAX_ATTRIBUTES_PER_SECTION}</td>
 *       <td>attributes of one section; for a delta, set and remove each</td></tr>
 *   <tr><td>maxSectionsPerMessage</td><td>{@value #DEFAULT_MAX_SECTIONS_PER_MESSAGE}</td>
 *       <td>sections named, returned, written or acknowledged in one message</td></tr>
 *   <tr><td>maxMessageBytes</td><td>{@value #DEFAULT_MAX_MESSAGE_BYTES} (64 MiB)</td>
 *       <td>one encoded message, header included, in either form; at most {@value #MAX_MESSAGE_BYTES_CEILING}</td></tr>
 *   <tr><td>maxNameBytes</td><td>{@value #MAX_NAME_BYTES}</td>
 *       <td>UTF-8 bytes of a section or attribute name; may be lowered, not raised</td></tr>
 *   <tr><td>maxSessionIdBytes</td><td>{@value #MAX_SESSION_ID_BYTES}</td>
 *       <td>bytes of a session id; may be lowered, not raised</td></tr>
 *   <tr><td>maxErrorMessageBytes</td><td>{@value #MAX_ERROR_MESSAGE_BYTES} (4 KiB)</td>
 *       <td>UTF-8 bytes of an error's message; may be lowered, not raised</td></tr>
 * </table>
 *
 * <p>Name rules, checked by the model's constructors and by both decoders: a section or attribute name is
 * 1..{@value #MAX_NAME_BYTES} bytes of UTF-8 with no control character (U+0000..U+001F, U+007F..U+009F) and
 * no unpaired surrogate; a session id is 1..{@value #MAX_SESSION_ID_BYTES} chars of {@code [A-Za-z0-9_-]}
 * (URL-safe, so it can travel in a REST path unescaped).
 *
 * @see "PROTOCOL.md, section Transport messages: limits"
 */
public final class TransportLimits {
    /** 1 MiB: far above a typical attribute (a few KB), small enough to keep one request cheap. */
    public static final int DEFAULT_MAX_ATTRIBUTE_VALUE_BYTES = 1 << 20;
    /** Attributes of one section. */
    public static final int DEFAULT_MAX_ATTRIBUTES_PER_SECTION = 10_000;
    /** Sections in one message. */
    public static final int DEFAULT_MAX_SECTIONS_PER_MESSAGE = 1_000;
    /** 64 MiB for one message, header included. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 << 20;
    /** The most any configuration may allow for one message: 1 GiB, well inside a Java array. */
    public static final int MAX_MESSAGE_BYTES_CEILING = 1 << 30;
    /** The least any configuration may allow for one message: room for a header and a short error. */
    public static final int MIN_MESSAGE_BYTES = 256;
    /** A section or attribute name: protocol maximum and default, in UTF-8 bytes. */
    public static final int MAX_NAME_BYTES = 255;
    /** A session id: protocol maximum and default, in bytes (ASCII). */
    public static final int MAX_SESSION_ID_BYTES = 128;
    /**
     * The fewest characters of a session id an application chooses itself (CREATE with a requested id, RENAME's new
     * id): ids are bearer secrets, so an application's id generator must make unguessable ones, and 16 characters of
     * the id alphabet is the least that can hold 64 random bits. Spring Session's UUIDs have 36; the master's own ids 22.
     */
    public static final int MIN_REQUESTED_ID_CHARS = 16;
    /** A session's principal (the user it belongs to): 1..256 bytes of UTF-8, no control character. */
    public static final int MAX_PRINCIPAL_BYTES = 256;
    /**
     * Session ids in one PRINCIPAL_SESSIONS message: fixed, 1,048,576, so that 1,024 master groups (the most a cluster
     * map names) listing their most each ({@code MasterAnswer.SessionsOfPrincipal.MAX_SESSIONS}, 1,000) fit.
     */
    public static final int MAX_PRINCIPAL_SESSION_IDS = 1 << 20;
    /** The message of an error: protocol maximum and default, in UTF-8 bytes. */
    public static final int MAX_ERROR_MESSAGE_BYTES = 4 << 10;

    /** The defaults of the table above. */
    public static final TransportLimits DEFAULT = builder().build();

    private final int maxAttributeValueBytes;
    private final int maxAttributesPerSection;
    private final int maxSectionsPerMessage;
    private final int maxMessageBytes;
    private final int maxNameBytes;
    private final int maxSessionIdBytes;
    private final int maxErrorMessageBytes;

    private TransportLimits(Builder b) {
        this.maxAttributeValueBytes = b.maxAttributeValueBytes;
        this.maxAttributesPerSection = b.maxAttributesPerSection;
        this.maxSectionsPerMessage = b.maxSectionsPerMessage;
        this.maxMessageBytes = b.maxMessageBytes;
        this.maxNameBytes = b.maxNameBytes;
        this.maxSessionIdBytes = b.maxSessionIdBytes;
        this.maxErrorMessageBytes = b.maxErrorMessageBytes;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    public int maxAttributeValueBytes() {
        return maxAttributeValueBytes;
    }

    public int maxAttributesPerSection() {
        return maxAttributesPerSection;
    }

    public int maxSectionsPerMessage() {
        return maxSectionsPerMessage;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    public int maxNameBytes() {
        return maxNameBytes;
    }

    public int maxSessionIdBytes() {
        return maxSessionIdBytes;
    }

    public int maxErrorMessageBytes() {
        return maxErrorMessageBytes;
    }

    /** Checks a section name against the name rules; returns it. */
    public static String checkSectionName(String name) {
        return checkName(name, "section name");
    }

    /** Checks an attribute name against the name rules; returns it. */
    public static String checkAttributeName(String name) {
        return checkName(name, "attribute name");
    }

    private static String checkName(String name, String what) {
        Objects.requireNonNull(name, what);
        int bytes = Utf8.nameLength(name);
        if (bytes < 0) {
            throw new IllegalArgumentException(what + " " + Utf8.quote(name) + " has a control character or an "
                    + "unpaired surrogate at index " + (-bytes - 1));
        }
        if (bytes == 0 || bytes > MAX_NAME_BYTES) {
            throw new IllegalArgumentException(what + " " + Utf8.quote(name) + " is " + bytes
                    + " bytes of UTF-8; must be 1.." + MAX_NAME_BYTES);
        }
        return name;
    }

    /**
     * Checks a principal: 1..{@value #MAX_PRINCIPAL_BYTES} bytes of UTF-8, no control character, no unpaired
     * surrogate; returns it. The message never repeats the principal (it names a user).
     */
    public static String checkPrincipal(String principal) {
        Objects.requireNonNull(principal, "principal");
        int bytes = Utf8.nameLength(principal);
        if (bytes < 0) {
            throw new IllegalArgumentException("principal has a control character or an unpaired surrogate at index "
                    + (-bytes - 1));
        }
        if (bytes == 0 || bytes > MAX_PRINCIPAL_BYTES) {
            throw new IllegalArgumentException("principal is " + bytes + " bytes of UTF-8; must be 1.." + MAX_PRINCIPAL_BYTES);
        }
        return principal;
    }

    /**
     * A principal from its UTF-8 bytes, checked as {@link #checkPrincipal} checks one.
     *
     * @throws MalformedMessageException BAD_REQUEST for bytes that are not such a principal
     */
    public static String decodePrincipal(byte[] utf8) {
        if (utf8.length == 0 || utf8.length > MAX_PRINCIPAL_BYTES) {
            throw new MalformedMessageException(utf8.length == 0 ? Status.BAD_REQUEST : Status.TOO_LARGE,
                    "principal of " + utf8.length + " bytes: expected 1.." + MAX_PRINCIPAL_BYTES);
        }
        int checked = Utf8.check(utf8, 0, utf8.length, true);
        if (checked >= 0) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "principal is not UTF-8 without control characters "
                    + "(byte " + checked + ")");
        }
        return new String(utf8, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Checks a session id against the rules; returns it. The message never repeats the id. */
    public static String checkSessionId(String sessionId) {
        Objects.requireNonNull(sessionId, "session id");
        int n = sessionId.length();
        if (n == 0 || n > MAX_SESSION_ID_BYTES) {
            throw new IllegalArgumentException("session id is " + n + " chars; must be 1.." + MAX_SESSION_ID_BYTES);
        }
        int bad = badSessionIdChar(sessionId);
        if (bad >= 0) {
            throw new IllegalArgumentException("session id has char U+" + String.format("%04X", (int) sessionId.charAt(bad))
                    + " at index " + bad + "; allowed: A-Z a-z 0-9 _ -");
        }
        return sessionId;
    }

    /**
     * Checks a session id that an application asks for (CREATE with a requested id, RENAME's new id): a session id, and
     * at least {@value #MIN_REQUESTED_ID_CHARS} characters long; returns it. The message names the rule, never the id.
     */
    public static String checkRequestedSessionId(String sessionId) {
        checkSessionId(sessionId);
        if (sessionId.length() < MIN_REQUESTED_ID_CHARS) {
            throw new IllegalArgumentException("requested session id is " + sessionId.length() + " chars; an id the "
                    + "application chooses must have at least " + MIN_REQUESTED_ID_CHARS + " (unguessable: it is a bearer secret)");
        }
        return sessionId;
    }

    /** The index of the first char outside {@code [A-Za-z0-9_-]}, or -1. */
    static int badSessionIdChar(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!isSessionIdChar(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /** A table rather than range tests: ids are random, so range tests mispredict a branch on most chars. */
    private static final boolean[] SESSION_ID_CHARS = new boolean[128];

    static {
        for (int c = 0; c < 128; c++) {
            SESSION_ID_CHARS[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        }
    }

    static boolean isSessionIdChar(int c) {
        return (c & ~0x7F) == 0 && SESSION_ID_CHARS[c];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TransportLimits l && l.maxAttributeValueBytes == maxAttributeValueBytes
                && l.maxAttributesPerSection == maxAttributesPerSection && l.maxSectionsPerMessage == maxSectionsPerMessage
                && l.maxMessageBytes == maxMessageBytes && l.maxNameBytes == maxNameBytes
                && l.maxSessionIdBytes == maxSessionIdBytes && l.maxErrorMessageBytes == maxErrorMessageBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxAttributeValueBytes, maxAttributesPerSection, maxSectionsPerMessage, maxMessageBytes,
                maxNameBytes, maxSessionIdBytes, maxErrorMessageBytes);
    }

    @Override
    public String toString() {
        return "transport limits: value " + maxAttributeValueBytes + " B, " + maxAttributesPerSection
                + " attributes/section, " + maxSectionsPerMessage + " sections/message, message " + maxMessageBytes
                + " B, name " + maxNameBytes + " B, session id " + maxSessionIdBytes + " B, error message "
                + maxErrorMessageBytes + " B";
    }

    /** Builds {@link TransportLimits}; {@link #build()} checks every value and names the bad one. */
    public static final class Builder {
        private int maxAttributeValueBytes = DEFAULT_MAX_ATTRIBUTE_VALUE_BYTES;
        private int maxAttributesPerSection = DEFAULT_MAX_ATTRIBUTES_PER_SECTION;
        private int maxSectionsPerMessage = DEFAULT_MAX_SECTIONS_PER_MESSAGE;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private int maxNameBytes = MAX_NAME_BYTES;
        private int maxSessionIdBytes = MAX_SESSION_ID_BYTES;
        private int maxErrorMessageBytes = MAX_ERROR_MESSAGE_BYTES;

        private Builder() {
        }

        public Builder maxAttributeValueBytes(int maxAttributeValueBytes) {
            this.maxAttributeValueBytes = maxAttributeValueBytes;
            return this;
        }

        public Builder maxAttributesPerSection(int maxAttributesPerSection) {
            this.maxAttributesPerSection = maxAttributesPerSection;
            return this;
        }

        public Builder maxSectionsPerMessage(int maxSectionsPerMessage) {
            this.maxSectionsPerMessage = maxSectionsPerMessage;
            return this;
        }

        public Builder maxMessageBytes(int maxMessageBytes) {
            this.maxMessageBytes = maxMessageBytes;
            return this;
        }

        public Builder maxNameBytes(int maxNameBytes) {
            this.maxNameBytes = maxNameBytes;
            return this;
        }

        public Builder maxSessionIdBytes(int maxSessionIdBytes) {
            this.maxSessionIdBytes = maxSessionIdBytes;
            return this;
        }

        public Builder maxErrorMessageBytes(int maxErrorMessageBytes) {
            this.maxErrorMessageBytes = maxErrorMessageBytes;
            return this;
        }

        public TransportLimits build() {
            range("maxMessageBytes", maxMessageBytes, MIN_MESSAGE_BYTES, MAX_MESSAGE_BYTES_CEILING);
            range("maxAttributeValueBytes", maxAttributeValueBytes, 0, MAX_MESSAGE_BYTES_CEILING);
            range("maxAttributesPerSection", maxAttributesPerSection, 0, Integer.MAX_VALUE);
            range("maxSectionsPerMessage", maxSectionsPerMessage, 0, Integer.MAX_VALUE);
            range("maxNameBytes", maxNameBytes, 1, MAX_NAME_BYTES);
            range("maxSessionIdBytes", maxSessionIdBytes, 1, MAX_SESSION_ID_BYTES);
            range("maxErrorMessageBytes", maxErrorMessageBytes, 0, MAX_ERROR_MESSAGE_BYTES);
            return new TransportLimits(this);
        }

        private static void range(String name, int value, int min, int max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(name + " " + value + " is outside " + min + ".." + max);
            }
        }
    }
}
