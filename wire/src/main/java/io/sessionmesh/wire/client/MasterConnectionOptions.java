package io.sessionmesh.wire.client;

import io.sessionmesh.wire.transport.TransportLimits;

import io.netty.handler.ssl.SslContext;

import java.time.Duration;

/**
 * How a {@link MasterConnection} behaves. Immutable; {@link #builder()} starts from the defaults, {@link Builder#build()}
 * checks the values and names a bad one.
 *
 * <table>
 *   <caption>Options and defaults</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>connectTimeout</td><td>2 s</td><td>the TCP connect; past it, connect fails with UNAVAILABLE</td></tr>
 *   <tr><td>requestTimeout</td><td>5 s</td><td>from a request's send (or its queueing, when it waits for a slot) to
 *       its answer; past it, that request fails with TIMEOUT (swept every {@value RequestTable#SWEEP_MILLIS} ms)</td></tr>
 *   <tr><td>maxInFlight</td><td>{@value #DEFAULT_MAX_IN_FLIGHT}</td><td>requests sent on the connection and waiting
 *       for their answers: the master's own limit per connection (its {@code max-in-flight}), so that it never has
 *       to refuse one; more wait in the connection's queue</td></tr>
 *   <tr><td>maxQueued</td><td>{@value #DEFAULT_MAX_QUEUED}</td><td>requests waiting in the connection's queue for a
 *       free in-flight slot (sent in order as answers come; their timeout runs while they wait); more fail at once
 *       with UNAVAILABLE</td></tr>
 *   <tr><td>limits</td><td>{@link TransportLimits#DEFAULT}</td><td>the largest answer frame read, and the transport
 *       codec's limits</td></tr>
 *   <tr><td>traffic</td><td>none</td><td>counts the bytes of every connection made with these options</td></tr>
 *   <tr><td>tls</td><td>none (plain TCP)</td><td>a client TLS context ({@code TlsFiles.clientContext()}): the
 *       connection presents its certificate, checks the master's, and is ready only once the handshake is done</td></tr>
 * </table>
 */
public final class MasterConnectionOptions {
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);
    /**
     * The master's default {@code max-in-flight} (MasterConfig.DEFAULT_MAX_IN_FLIGHT, which a sidecar test checks):
     * above it the master stops reading and refuses what it read past it with UNAVAILABLE.
     */
    public static final int DEFAULT_MAX_IN_FLIGHT = 1024;
    /** Four times the in-flight limit: a burst of four rounds waits rather than fails. */
    public static final int DEFAULT_MAX_QUEUED = 4 * DEFAULT_MAX_IN_FLIGHT;
    /** The defaults above. */
    public static final MasterConnectionOptions DEFAULT = builder().build();

    private final Duration connectTimeout;
    private final Duration requestTimeout;
    private final int maxInFlight;
    private final int maxQueued;
    private final TransportLimits limits;
    private final LinkTraffic traffic;
    private final SslContext tls;

    private MasterConnectionOptions(Builder b) {
        connectTimeout = b.connectTimeout;
        requestTimeout = b.requestTimeout;
        maxInFlight = b.maxInFlight;
        maxQueued = b.maxQueued;
        limits = b.limits;
        traffic = b.traffic;
        tls = b.tls;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    public Duration requestTimeout() {
        return requestTimeout;
    }

    public int maxInFlight() {
        return maxInFlight;
    }

    public int maxQueued() {
        return maxQueued;
    }

    public TransportLimits limits() {
        return limits;
    }

    /** The byte counter of these connections, or null. */
    public LinkTraffic traffic() {
        return traffic;
    }

    /** The client TLS context, or null for plain TCP. */
    public SslContext tls() {
        return tls;
    }

    @Override
    public String toString() {
        return "MasterConnectionOptions[connectTimeout=" + connectTimeout.toMillis() + "ms, requestTimeout="
                + requestTimeout.toMillis() + "ms, maxInFlight=" + maxInFlight + ", maxQueued=" + maxQueued + ", tls="
                + (tls != null) + "]";
    }

    /** Builds {@link MasterConnectionOptions}; starts from the defaults. */
    public static final class Builder {
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
        private int maxQueued = DEFAULT_MAX_QUEUED;
        private TransportLimits limits = TransportLimits.DEFAULT;
        private LinkTraffic traffic;
        private SslContext tls;

        private Builder() {
        }

        /** Connects with TLS through this client context (null: plain TCP). */
        public Builder tls(SslContext context) {
            if (context != null && !context.isClient()) {
                throw new IllegalArgumentException("tls: a server context cannot connect");
            }
            this.tls = context;
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = timeout;
            return this;
        }

        public Builder maxInFlight(int max) {
            this.maxInFlight = max;
            return this;
        }

        /** Requests that may wait for a free in-flight slot (0: none wait, a request over maxInFlight fails). */
        public Builder maxQueued(int max) {
            this.maxQueued = max;
            return this;
        }

        public Builder limits(TransportLimits limits) {
            this.limits = limits;
            return this;
        }

        /** Counts the bytes of every connection made with these options (null: not counted). */
        public Builder traffic(LinkTraffic traffic) {
            this.traffic = traffic;
            return this;
        }

        /** The options; IllegalArgumentException naming a value out of range. */
        public MasterConnectionOptions build() {
            if (connectTimeout == null || connectTimeout.toMillis() < 1 || connectTimeout.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("connectTimeout " + connectTimeout + " is outside 1 ms..24 days");
            }
            if (requestTimeout == null || requestTimeout.toMillis() < 1) {
                throw new IllegalArgumentException("requestTimeout " + requestTimeout + " is under 1 ms");
            }
            if (maxInFlight < 1) {
                throw new IllegalArgumentException("maxInFlight " + maxInFlight + " is under 1");
            }
            if (maxQueued < 0) {
                throw new IllegalArgumentException("maxQueued " + maxQueued + " is under 0");
            }
            if (limits == null) {
                throw new IllegalArgumentException("limits are null");
            }
            return new MasterConnectionOptions(this);
        }
    }
}
