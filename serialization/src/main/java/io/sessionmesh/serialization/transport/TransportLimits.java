package io.sessionmesh.serialization.transport;

/**
 * Size and count limits of transport messages, checked by both forms' decoders before they allocate.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>limit</th><th>default</th></tr>
 *   <tr><td>bytes of one attribute value</td><td>{@value #DEFAULT_MAX_VALUE_BYTES} (1 MiB)</td></tr>
 *   <tr><td>attributes in one section (or one delta's set + remove)</td><td>{@value #DEFAULT_MAX_ATTRIBUTES}</td></tr>
 *   <tr><td>sections in one message</td><td>{@value #DEFAULT_MAX_SECTIONS}</td></tr>
 *   <tr><td>bytes of one message</td><td>{@value #DEFAULT_MAX_MESSAGE_BYTES} (64 MiB)</td></tr>
 *   <tr><td>UTF-8 bytes of a section or attribute name</td><td>{@value #MAX_NAME_BYTES}, fixed</td></tr>
 *   <tr><td>bytes of a session id</td><td>{@value #MAX_SESSION_ID_BYTES}, fixed</td></tr>
 *   <tr><td>UTF-8 bytes of an error message</td><td>{@value #MAX_ERROR_MESSAGE_BYTES}, fixed</td></tr>
 * </table>
 * Name rules: a section or attribute name is 1 to 255 bytes of UTF-8 without control characters; a session
 * id is 1 to 128 characters of {@code [A-Za-z0-9_-]}.
 */
public final class TransportLimits {
    /** 1 MiB: the attribute limit of the product. */
    public static final int DEFAULT_MAX_VALUE_BYTES = 1 << 20;
    /** Attributes in one section. */
    public static final int DEFAULT_MAX_ATTRIBUTES = 10_000;
    /** Sections in one message. */
    public static final int DEFAULT_MAX_SECTIONS = 1_000;
    /** 64 MiB: a whole large session in one message. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 << 20;
    /** Names are short identifiers. */
    public static final int MAX_NAME_BYTES = 255;
    /** Session ids are random tokens. */
    public static final int MAX_SESSION_ID_BYTES = 128;
    /** Error messages are for humans. */
    public static final int MAX_ERROR_MESSAGE_BYTES = 4096;
    /** The defaults. */
    public static final TransportLimits DEFAULT = builder().build();

    private final int maxValueBytes;
    private final int maxAttributes;
    private final int maxSections;
    private final int maxMessageBytes;

    private TransportLimits(Builder b) {
        this.maxValueBytes = b.maxValueBytes;
        this.maxAttributes = b.maxAttributes;
        this.maxSections = b.maxSections;
        this.maxMessageBytes = b.maxMessageBytes;
    }

    public static Builder builder() {
        return new Builder();
    }

    public int maxValueBytes() {
        return maxValueBytes;
    }

    public int maxAttributes() {
        return maxAttributes;
    }

    public int maxSections() {
        return maxSections;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    @Override
    public String toString() {
        return "TransportLimits[value " + maxValueBytes + " B, " + maxAttributes + " attributes, " + maxSections
                + " sections, message " + maxMessageBytes + " B]";
    }

    /** Builds {@link TransportLimits}; every limit must be positive. */
    public static final class Builder {
        private int maxValueBytes = DEFAULT_MAX_VALUE_BYTES;
        private int maxAttributes = DEFAULT_MAX_ATTRIBUTES;
        private int maxSections = DEFAULT_MAX_SECTIONS;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;

        private Builder() {
        }

        public Builder maxValueBytes(int value) {
            this.maxValueBytes = value;
            return this;
        }

        public Builder maxAttributes(int value) {
            this.maxAttributes = value;
            return this;
        }

        public Builder maxSections(int value) {
            this.maxSections = value;
            return this;
        }

        public Builder maxMessageBytes(int value) {
            this.maxMessageBytes = value;
            return this;
        }

        public TransportLimits build() {
            positive("maxValueBytes", maxValueBytes);
            positive("maxAttributes", maxAttributes);
            positive("maxSections", maxSections);
            positive("maxMessageBytes", maxMessageBytes);
            return new TransportLimits(this);
        }

        private static void positive(String name, int value) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be positive: " + value);
            }
        }
    }
}
