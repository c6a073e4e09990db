package io.sessionmesh.master.store;

import java.time.Duration;

/**
 * Limits and timeouts of a {@link SessionStore}. Immutable; {@link #builder()} starts from the defaults,
 * {@link Builder#build()} checks that they fit together and names the bad value. Going over a size limit is
 * {@code TOO_LARGE} for that request alone (nothing of it is applied); a full store is {@code UNAVAILABLE}.
 *
 * <table>
 *   <caption>Limits and defaults</caption>
 *   <tr><th>limit</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>defaultIdleTimeout</td><td>300 s</td><td>a session unused this long expires (settable per session)</td></tr>
 *   <tr><td>maxIdleTimeout</td><td>24 h</td><td>the longest idle timeout a session may ask for</td></tr>
 *   <tr><td>maxLifetime</td><td>12 h</td><td>a session expires this long after creation, used or not</td></tr>
 *   <tr><td>maxAttributeBytes</td><td>1 MiB</td><td>one attribute value</td></tr>
 *   <tr><td>maxAttributesPerSection</td><td>1,000</td><td>attributes in one section</td></tr>
 *   <tr><td>maxSectionBytes</td><td>4 MiB</td><td>one section in its wire form: names, values and their lengths</td></tr>
 *   <tr><td>maxSectionsPerSession</td><td>256</td><td>sections of one session</td></tr>
 *   <tr><td>maxSessionBytes</td><td>16 MiB</td><td>one session: all its sections in wire form</td></tr>
 *   <tr><td>maxSessions</td><td>4,000,000</td><td>live sessions in the store</td></tr>
 *   <tr><td>maxStoreBytes</td><td>60% of the heap</td><td>the store's memory budget: every byte it keeps (sections
 *       in wire form, the overhead of sessions, sections, shared names, schemas and removed sessions not yet purged:
 *       {@link MemoryBudget}); over it CREATE, a WRITE that grows and SCHEMA_PUBLISH are UNAVAILABLE</td></tr>
 *   <tr><td>maxNames</td><td>65,536</td><td>distinct section names shared across sessions</td></tr>
 *   <tr><td>maxSchemas</td><td>100,000</td><td>one-nio schemas held for the schema registry</td></tr>
 *   <tr><td>maxSchemaBytes</td><td>64 KiB</td><td>one schema</td></tr>
 * </table>
 */
public final class StoreLimits {
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);
    public static final Duration DEFAULT_MAX_IDLE_TIMEOUT = Duration.ofHours(24);
    public static final Duration DEFAULT_MAX_LIFETIME = Duration.ofHours(12);
    public static final int DEFAULT_MAX_ATTRIBUTE_BYTES = 1 << 20;
    public static final int DEFAULT_MAX_ATTRIBUTES_PER_SECTION = 1_000;
    public static final int DEFAULT_MAX_SECTION_BYTES = 4 << 20;
    public static final int DEFAULT_MAX_SECTIONS_PER_SESSION = 256;
    public static final int DEFAULT_MAX_SESSION_BYTES = 16 << 20;
    public static final int DEFAULT_MAX_SESSIONS = 4_000_000;
    /** Share of the JVM's maximum heap that the store's memory budget takes by default. */
    public static final double DEFAULT_STORE_HEAP_SHARE = 0.6;
    public static final int DEFAULT_MAX_NAMES = 65_536;
    public static final int DEFAULT_MAX_SCHEMAS = 100_000;
    public static final int DEFAULT_MAX_SCHEMA_BYTES = 64 << 10;

    /** The defaults above, with maxStoreBytes taken from this JVM's heap. */
    public static final StoreLimits DEFAULT = builder().build();

    private final Duration defaultIdleTimeout;
    private final Duration maxIdleTimeout;
    private final Duration maxLifetime;
    private final int maxAttributeBytes;
    private final int maxAttributesPerSection;
    private final int maxSectionBytes;
    private final int maxSectionsPerSession;
    private final int maxSessionBytes;
    private final int maxSessions;
    private final long maxStoreBytes;
    private final int maxNames;
    private final int maxSchemas;
    private final int maxSchemaBytes;

    private StoreLimits(Builder b) {
        defaultIdleTimeout = b.defaultIdleTimeout;
        maxIdleTimeout = b.maxIdleTimeout;
        maxLifetime = b.maxLifetime;
        maxAttributeBytes = b.maxAttributeBytes;
        maxAttributesPerSection = b.maxAttributesPerSection;
        maxSectionBytes = b.maxSectionBytes;
        maxSectionsPerSession = b.maxSectionsPerSession;
        maxSessionBytes = b.maxSessionBytes;
        maxSessions = b.maxSessions;
        maxStoreBytes = b.maxStoreBytes;
        maxNames = b.maxNames;
        maxSchemas = b.maxSchemas;
        maxSchemaBytes = b.maxSchemaBytes;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Duration defaultIdleTimeout() {
        return defaultIdleTimeout;
    }

    public Duration maxIdleTimeout() {
        return maxIdleTimeout;
    }

    public Duration maxLifetime() {
        return maxLifetime;
    }

    public int maxAttributeBytes() {
        return maxAttributeBytes;
    }

    public int maxAttributesPerSection() {
        return maxAttributesPerSection;
    }

    public int maxSectionBytes() {
        return maxSectionBytes;
    }

    public int maxSectionsPerSession() {
        return maxSectionsPerSession;
    }

    public int maxSessionBytes() {
        return maxSessionBytes;
    }

    public int maxSessions() {
        return maxSessions;
    }

    public long maxStoreBytes() {
        return maxStoreBytes;
    }

    public int maxNames() {
        return maxNames;
    }

    public int maxSchemas() {
        return maxSchemas;
    }

    public int maxSchemaBytes() {
        return maxSchemaBytes;
    }

    /** A builder starting from these limits. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.defaultIdleTimeout = defaultIdleTimeout;
        b.maxIdleTimeout = maxIdleTimeout;
        b.maxLifetime = maxLifetime;
        b.maxAttributeBytes = maxAttributeBytes;
        b.maxAttributesPerSection = maxAttributesPerSection;
        b.maxSectionBytes = maxSectionBytes;
        b.maxSectionsPerSession = maxSectionsPerSession;
        b.maxSessionBytes = maxSessionBytes;
        b.maxSessions = maxSessions;
        b.maxStoreBytes = maxStoreBytes;
        b.maxNames = maxNames;
        b.maxSchemas = maxSchemas;
        b.maxSchemaBytes = maxSchemaBytes;
        return b;
    }

    @Override
    public String toString() {
        return "StoreLimits[defaultIdleTimeout=" + defaultIdleTimeout + ", maxIdleTimeout=" + maxIdleTimeout
                + ", maxLifetime=" + maxLifetime + ", maxAttributeBytes=" + maxAttributeBytes
                + ", maxAttributesPerSection=" + maxAttributesPerSection + ", maxSectionBytes=" + maxSectionBytes
                + ", maxSectionsPerSession=" + maxSectionsPerSession + ", maxSessionBytes=" + maxSessionBytes
                + ", maxSessions=" + maxSessions + ", maxStoreBytes=" + maxStoreBytes + ", maxNames=" + maxNames
                + ", maxSchemas=" + maxSchemas + ", maxSchemaBytes=" + maxSchemaBytes + "]";
    }

    /** Options of {@link StoreLimits}; every setter checks its own range, {@link #build()} the combination. */
    public static final class Builder {
        private Duration defaultIdleTimeout = DEFAULT_IDLE_TIMEOUT;
        private Duration maxIdleTimeout = DEFAULT_MAX_IDLE_TIMEOUT;
        private Duration maxLifetime = DEFAULT_MAX_LIFETIME;
        private int maxAttributeBytes = DEFAULT_MAX_ATTRIBUTE_BYTES;
        private int maxAttributesPerSection = DEFAULT_MAX_ATTRIBUTES_PER_SECTION;
        private int maxSectionBytes = DEFAULT_MAX_SECTION_BYTES;
        private int maxSectionsPerSession = DEFAULT_MAX_SECTIONS_PER_SESSION;
        private int maxSessionBytes = DEFAULT_MAX_SESSION_BYTES;
        private int maxSessions = DEFAULT_MAX_SESSIONS;
        private long maxStoreBytes = (long) (Runtime.getRuntime().maxMemory() * DEFAULT_STORE_HEAP_SHARE);
        private int maxNames = DEFAULT_MAX_NAMES;
        private int maxSchemas = DEFAULT_MAX_SCHEMAS;
        private int maxSchemaBytes = DEFAULT_MAX_SCHEMA_BYTES;

        private Builder() {
        }

        public Builder defaultIdleTimeout(Duration d) {
            defaultIdleTimeout = positive("defaultIdleTimeout", d);
            return this;
        }

        public Builder maxIdleTimeout(Duration d) {
            maxIdleTimeout = positive("maxIdleTimeout", d);
            return this;
        }

        public Builder maxLifetime(Duration d) {
            maxLifetime = positive("maxLifetime", d);
            return this;
        }

        public Builder maxAttributeBytes(int n) {
            maxAttributeBytes = positive("maxAttributeBytes", n);
            return this;
        }

        public Builder maxAttributesPerSection(int n) {
            maxAttributesPerSection = positive("maxAttributesPerSection", n);
            return this;
        }

        public Builder maxSectionBytes(int n) {
            maxSectionBytes = positive("maxSectionBytes", n);
            return this;
        }

        public Builder maxSectionsPerSession(int n) {
            maxSectionsPerSession = positive("maxSectionsPerSession", n);
            return this;
        }

        public Builder maxSessionBytes(int n) {
            maxSessionBytes = positive("maxSessionBytes", n);
            return this;
        }

        public Builder maxSessions(int n) {
            maxSessions = positive("maxSessions", n);
            return this;
        }

        public Builder maxStoreBytes(long n) {
            if (n <= 0) {
                throw new IllegalArgumentException("maxStoreBytes = " + n + ": must be positive");
            }
            maxStoreBytes = n;
            return this;
        }

        public Builder maxNames(int n) {
            maxNames = positive("maxNames", n);
            return this;
        }

        public Builder maxSchemas(int n) {
            maxSchemas = positive("maxSchemas", n);
            return this;
        }

        public Builder maxSchemaBytes(int n) {
            maxSchemaBytes = positive("maxSchemaBytes", n);
            return this;
        }

        public StoreLimits build() {
            if (defaultIdleTimeout.compareTo(maxIdleTimeout) > 0) {
                throw new IllegalArgumentException("defaultIdleTimeout " + defaultIdleTimeout
                        + " is above maxIdleTimeout " + maxIdleTimeout);
            }
            if (maxAttributeBytes > maxSectionBytes) {
                throw new IllegalArgumentException("maxAttributeBytes " + maxAttributeBytes + " is above maxSectionBytes "
                        + maxSectionBytes + ": no attribute of the largest size could be stored");
            }
            if (maxSectionBytes > maxSessionBytes) {
                throw new IllegalArgumentException("maxSectionBytes " + maxSectionBytes + " is above maxSessionBytes "
                        + maxSessionBytes);
            }
            return new StoreLimits(this);
        }

        private static int positive(String name, int n) {
            if (n <= 0) {
                throw new IllegalArgumentException(name + " = " + n + ": must be positive");
            }
            return n;
        }

        private static Duration positive(String name, Duration d) {
            if (d == null || d.isNegative() || d.isZero() || d.toMillis() == 0) {
                throw new IllegalArgumentException(name + " = " + d + ": must be at least 1 ms");
            }
            return d;
        }
    }
}
