package io.sessionmesh.client;

import io.sessionmesh.client.internal.KnownPrincipals;
import io.sessionmesh.client.internal.SidecarAdmin;
import io.sessionmesh.client.internal.SidecarApi;
import io.sessionmesh.client.internal.SidecarHttp;
import io.sessionmesh.client.internal.SidecarSchemaRegistry;
import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.serialization.compression.CompressionOptions;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.SessionCreated;
import io.sessionmesh.wire.transport.TransportLimits;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * The entry point: shared sessions through the sidecar on this host. Immutable and thread-safe; build one per
 * application ({@link #builder()}) and close it at shutdown.
 *
 * <pre>{@code
 * SessionMeshClient client = SessionMeshClient.builder()
 *         .sidecar(URI.create("http://127.0.0.1:7500"))
 *         .classFilter(ClassFilter.allowingPackages("com.example.bank"))
 *         .build();
 * Session session = client.getSession(id, "clientInfo", "defaultCurrency");   // one call for both
 * Client c = session.section("clientInfo").getAttribute("client", Client.class);
 * session.section("deposits").setAttribute("new", deposit);                     // "deposits" read on first use
 * session.save();                                                               // one call, only what changed
 * }</pre>
 *
 * <table>
 *   <caption>Options and defaults</caption>
 *   <tr><th>option</th><th>default</th></tr>
 *   <tr><td>sidecar</td><td>{@value #DEFAULT_SIDECAR}</td></tr>
 *   <tr><td>admin</td><td>{@value #DEFAULT_ADMIN} (the sidecar's admin port: {@link #sessionsOf} only)</td></tr>
 *   <tr><td>adminToken</td><td>none (the admin port needs none on loopback)</td></tr>
 *   <tr><td>connectTimeout</td><td>1 s</td></tr>
 *   <tr><td>requestTimeout</td><td>8 s: {@link #DEFAULT_REQUEST_TIMEOUT}, above the sidecar's master timeout and a
 *       master's lease, so that the sidecar's answer arrives first</td></tr>
 *   <tr><td>poolSize</td><td>{@value #DEFAULT_POOL_SIZE} keep-alive connections</td></tr>
 *   <tr><td>maxAnswerBytes</td><td>64 MiB</td></tr>
 *   <tr><td>classFilter</td><td>none: required, {@link ClassFilter#allowingPackages} your packages</td></tr>
 *   <tr><td>maxDepth</td><td>{@value AttributeCodec#DEFAULT_MAX_DEPTH} levels of nested objects in one value</td></tr>
 *   <tr><td>maxObjects</td><td>{@value AttributeCodec#DEFAULT_MAX_OBJECTS} objects in one value</td></tr>
 *   <tr><td>saveMode</td><td>{@link SaveMode#ON_SET_OR_READ}</td></tr>
 *   <tr><td>compression</td><td>{@link CompressionOptions#DEFAULT} (LZ4 from 512 B when it saves 10%)</td></tr>
 * </table>
 */
public final class SessionMeshClient implements AutoCloseable {
    public static final String DEFAULT_SIDECAR = "http://127.0.0.1:7500";
    /** The sidecar's admin port on this host, where {@link #sessionsOf} asks (the sidecar's {@code admin-port}). */
    public static final String DEFAULT_ADMIN = "http://127.0.0.1:7501";
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(1);
    /** The sidecar's default {@code master-timeout}: how long it waits for a master before it answers (5 s). */
    public static final Duration SIDECAR_MASTER_TIMEOUT = Duration.ofSeconds(5);
    /** A master's default {@code lease} (2 s): the longest a write's answer waits for a cache that does not confirm. */
    public static final Duration MASTER_LEASE = Duration.ofSeconds(2);
    /**
     * How long a call to the sidecar may take: above {@link #SIDECAR_MASTER_TIMEOUT} plus {@link #MASTER_LEASE}, with a
     * second for the answer's way back, so that the sidecar, which knows what happened on the master (a write applied,
     * refused, or of unknown outcome: 504 OUTCOME_UNKNOWN), answers before this client gives up knowing nothing. The
     * sidecar answers a write within its master timeout; a master holds a fenced answer at most one lease within it,
     * and the lease is the margin for a master call that began just before the sidecar's deadline. Shorter than that, a
     * slow write ends here as an unknown outcome that the sidecar could have told apart. The integration tests check
     * the defaults keep this order ({@code TimeoutOrderTest}); with other settings keep it by hand.
     */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = SIDECAR_MASTER_TIMEOUT.plus(MASTER_LEASE).plusSeconds(1);
    public static final int DEFAULT_POOL_SIZE = 64;
    public static final int DEFAULT_MAX_ANSWER_BYTES = TransportLimits.DEFAULT_MAX_MESSAGE_BYTES;

    private final Builder options;
    private final SidecarHttp http;
    private final SidecarApi api;
    /** The sidecar's admin port: {@link #sessionsOf} only. */
    private final SidecarAdmin admin;
    private final KnownPrincipals knownPrincipals = new KnownPrincipals(KnownPrincipals.DEFAULT_CAPACITY);
    private final AttributeCodec codec;
    private final LongAdder decodeFailures = new LongAdder();

    private SessionMeshClient(Builder b) {
        this.options = b.copy();
        this.http = new SidecarHttp(b.sidecar, b.connectTimeout, b.requestTimeout, b.poolSize, b.maxAnswerBytes);
        this.api = new SidecarApi(http, new BinaryTransportCodec(), b.transport, b.metrics);
        this.admin = new SidecarAdmin(b.admin, b.adminToken, b.connectTimeout, b.requestTimeout);
        AttributeCodec.Builder codecBuilder = AttributeCodec.builder()
                .schemaRegistry(new SidecarSchemaRegistry(api))
                .classFilter(b.classFilter)
                .maxDepth(b.maxDepth)
                .maxObjects(b.maxObjects)
                .compression(b.compression);
        if (b.renamedClasses.length > 0) {
            codecBuilder.registerClasses(b.renamedClasses);
        }
        this.codec = codecBuilder.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A new, empty session with the master's default idle timeout. */
    public Session createSession() {
        return createSession((Duration) null, null);
    }

    /** A new, empty session with its own idle timeout (whole seconds; null for the default). */
    public Session createSession(Duration idleTimeout) {
        return createSession(idleTimeout, null);
    }

    /**
     * A new, empty session with the master's default idle timeout, belonging to {@code principal}, the user it is
     * for (null: to no one yet; {@link Session#setPrincipal} sets one later).
     *
     * @throws BadRequestException or {@link PayloadTooLargeException} if the principal is not 1..256 bytes of UTF-8
     *     without control characters; nothing is sent
     */
    public Session createSession(String principal) {
        return createSession(null, principal);
    }

    /**
     * A new, empty session with its own idle timeout (whole seconds; null for the default), belonging to
     * {@code principal} (null: to no one yet).
     *
     * @throws BadRequestException or {@link PayloadTooLargeException} if the principal is not 1..256 bytes of UTF-8
     *     without control characters; nothing is sent
     */
    public Session createSession(Duration idleTimeout, String principal) {
        long seconds = idleTimeout == null ? 0 : Math.max(1, idleTimeout.toSeconds());
        SessionCreated created = api.create(seconds, principal);
        return new Session(this, created.sessionId()).created(principal);
    }

    /**
     * A new, empty session with the id the application chose (Spring Session's {@code SessionIdGenerator}, say), its own
     * idle timeout (whole seconds; null for the default), belonging to {@code principal} (null: to no one yet). The
     * sidecar creates it on the master that owns the id.
     *
     * @param id 16..128 characters of {@code [A-Za-z0-9_-]}: an id the application chooses must be unguessable
     *     ({@link TransportLimits#MIN_REQUESTED_ID_CHARS}); a UUID's 36 are fine
     * @throws SessionConflictException if a live session has the id
     * @throws BadRequestException if the id or principal breaks its rules (nothing is sent; the message never repeats
     *     either), or {@link PayloadTooLargeException} for a principal over 256 bytes
     */
    public Session createSession(String id, Duration idleTimeout, String principal) {
        long seconds = idleTimeout == null ? 0 : Math.max(1, idleTimeout.toSeconds());
        SessionCreated created = api.create(id, seconds, principal);
        return new Session(this, created.sessionId()).created(principal);
    }

    /**
     * Moves a session to {@code newId} and/or gives it a new idle timeout, atomically on its master (Spring Session's
     * {@code changeSessionId} at login, and {@code setMaxInactiveInterval}): its sections, versions and principal go with
     * it, the old id is gone at once (of two renames of one id the first wins; the second finds no session), and its idle
     * time starts again. Sessions this client opened under the old id are not updated: open the new id.
     *
     * @param newId the new id (16..128 characters of {@code [A-Za-z0-9_-]}), or null or {@code oldId} to keep the id
     * @param idleTimeout the new idle timeout (whole seconds, at least 1), or null to keep it; not both null with the id kept
     * @return the session's idle timeout after the rename
     * @throws SessionNotFoundException if no live session has {@code oldId} (renamed, deleted or expired)
     * @throws SessionIdOnAnotherMasterException (a {@link SessionConflictException}) if {@code newId} belongs to another
     *     master than the session's: nothing changed, choose another id and call again
     * @throws SessionConflictException if a live session has {@code newId}
     * @throws BadRequestException for an id that breaks its rules, or nothing to change (nothing is sent)
     */
    public Duration renameSession(String oldId, String newId, Duration idleTimeout) {
        TransportLimits.checkSessionId(oldId);
        String to = newId == null || newId.equals(oldId) ? null : newId;
        long seconds = idleTimeout == null ? 0 : Math.max(1, idleTimeout.toSeconds());
        if (to == null && seconds == 0) {
            throw new BadRequestException("rename: neither a new id nor an idle timeout (nothing was sent)");
        }
        SessionCreated renamed = api.rename(oldId, to, seconds);
        return Duration.ofSeconds(renamed.idleTimeoutSeconds());
    }

    /**
     * The live sessions of {@code principal} (Spring Session's {@code findByPrincipalName}): every master (group) is
     * asked, each answering from its leader's applied state, so a session created, renamed (under its new id only), given
     * the principal (under its new principal only), deleted or expired before this call is listed or left out
     * accordingly. Uses no session (no idle time restarts) and nothing cached. Asked on the sidecar's admin port
     * ({@link Builder#admin}, with {@link Builder#adminToken} where that port has one): the REST API does not list a
     * principal's sessions, since any local process could learn a user's session ids by name there.
     *
     * @return the ids, and whether they are all: {@link PrincipalSessions#complete()} is false when a master did not
     *     answer, listed only part (over 1,000 sessions of the principal on one master), or masters are moving sessions
     * @throws BadRequestException or {@link PayloadTooLargeException} if the principal is not 1..256 bytes of UTF-8
     *     without control characters (nothing is sent; the message never repeats it)
     * @throws SidecarUnavailableException if no master answered
     */
    public PrincipalSessions sessionsOf(String principal) {
        io.sessionmesh.wire.transport.PrincipalSessions found = admin.sessionsOf(principal);
        return new PrincipalSessions(found.sessionIds(), found.complete());
    }

    /**
     * An existing session with the named sections read now, in one call; sections not named are read on first use.
     *
     * @throws SessionNotFoundException if the session is unknown, deleted or expired
     */
    public Session getSession(String id, String... sections) {
        TransportLimits.checkSessionId(id);
        Session s = new Session(this, id);
        if (sections.length > 0) {
            s.load(sections);
        }
        return s;
    }

    /** An existing session without reading anything yet (no call): every section is read on first use. */
    public Session openSession(String id) {
        TransportLimits.checkSessionId(id);
        return new Session(this, id);
    }

    /** Calls made to the sidecar since the client started. */
    public long calls() {
        return api.calls();
    }

    /** Request body bytes sent to the sidecar since the client started (deltas, schemas). */
    public long bytesSent() {
        return api.bytesSent();
    }

    /** Answer body bytes received from the sidecar. */
    public long bytesReceived() {
        return api.bytesReceived();
    }

    /** Values that failed to decode since the client started. */
    public long decodeFailures() {
        return decodeFailures.sum();
    }

    public SaveMode saveMode() {
        return options.saveMode;
    }

    public URI sidecar() {
        return options.sidecar;
    }

    AttributeCodec codec() {
        return codec;
    }

    SidecarApi api() {
        return api;
    }

    /** The principals this client last knew its sessions to have ({@link Session#principalAsLastKnown()}). */
    KnownPrincipals knownPrincipals() {
        return knownPrincipals;
    }

    ClientMetrics metrics() {
        return options.metrics;
    }

    void decodeFailed(String section, String attribute, RuntimeException e) {
        decodeFailures.increment();
        options.metrics.decodeFailure(section, attribute, e);
    }

    @Override
    public void close() {
        http.close();
    }

    @Override
    public String toString() {
        return "SessionMeshClient[" + options.sidecar + ", pool " + options.poolSize + ", " + options.saveMode + ", " + codec + "]";
    }

    /** Options of a {@link SessionMeshClient}; {@link #build()} checks them and names a bad one. */
    public static final class Builder {
        private URI sidecar = URI.create(DEFAULT_SIDECAR);
        private URI admin = URI.create(DEFAULT_ADMIN);
        private String adminToken;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private int poolSize = DEFAULT_POOL_SIZE;
        private int maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES;
        private ClassFilter classFilter;
        private int maxDepth = AttributeCodec.DEFAULT_MAX_DEPTH;
        private int maxObjects = AttributeCodec.DEFAULT_MAX_OBJECTS;
        private SaveMode saveMode = SaveMode.ON_SET_OR_READ;
        private CompressionOptions compression = CompressionOptions.DEFAULT;
        private ClientMetrics metrics = ClientMetrics.NONE;
        private Class<?>[] renamedClasses = {};
        private TransportForm transport = TransportForm.BINARY;

        private Builder() {
        }

        /**
         * The sidecar on this host: {@code http://host:port}, or {@code unix:/path/to/sidecar.sock}, the Unix domain
         * socket the sidecar listens on with {@code unix-socket} (no TCP stack on either side: less CPU per call).
         */
        public Builder sidecar(URI uri) {
            this.sidecar = Objects.requireNonNull(uri, "sidecar");
            return this;
        }

        /**
         * The sidecar's admin port, {@code http://host:port} ({@value SessionMeshClient#DEFAULT_ADMIN} by default): where
         * {@link SessionMeshClient#sessionsOf} asks. Nothing else goes there.
         */
        public Builder admin(URI uri) {
            this.admin = Objects.requireNonNull(uri, "admin");
            return this;
        }

        /**
         * The sidecar's admin token, for {@link SessionMeshClient#sessionsOf} where the admin port has one (it needs
         * none on loopback); null for none. The holder of the token may also log users out everywhere: give it only to
         * a service that lists principals' sessions.
         */
        public Builder adminToken(String token) {
            this.adminToken = token == null || token.isEmpty() ? null : token;
            return this;
        }

        public Builder connectTimeout(Duration d) {
            this.connectTimeout = Objects.requireNonNull(d, "connectTimeout");
            return this;
        }

        public Builder requestTimeout(Duration d) {
            this.requestTimeout = Objects.requireNonNull(d, "requestTimeout");
            return this;
        }

        /** Keep-alive connections to the sidecar at most (callers beyond wait, up to the request timeout). */
        public Builder poolSize(int n) {
            this.poolSize = n;
            return this;
        }

        public Builder maxAnswerBytes(int n) {
            this.maxAnswerBytes = n;
            return this;
        }

        /**
         * Which classes values may be decoded as: required, for instance
         * {@code ClassFilter.allowingPackages("com.example.bank")}, with {@code .andClasses("java.net.URL")} for single
         * classes; see {@link ClassFilter}.
         */
        public Builder classFilter(ClassFilter filter) {
            this.classFilter = Objects.requireNonNull(filter, "classFilter");
            return this;
        }

        /** How deeply objects may nest in one value; see {@link AttributeCodec#DEFAULT_MAX_DEPTH}. */
        public Builder maxDepth(int n) {
            this.maxDepth = n;
            return this;
        }

        /** How many objects one value may hold; see {@link AttributeCodec#DEFAULT_MAX_OBJECTS}. */
        public Builder maxObjects(int n) {
            this.maxObjects = n;
            return this;
        }

        public Builder saveMode(SaveMode mode) {
            this.saveMode = Objects.requireNonNull(mode, "saveMode");
            return this;
        }

        public Builder compression(CompressionOptions options) {
            this.compression = Objects.requireNonNull(options, "compression");
            return this;
        }

        /** The form of the messages to the sidecar; {@link TransportForm#BINARY} unless told. */
        public Builder transport(TransportForm form) {
            this.transport = Objects.requireNonNull(form, "transport");
            return this;
        }

        public Builder metrics(ClientMetrics metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            return this;
        }

        /** Classes that carry {@code @FormerNames}, so values written under their old names still decode. */
        public Builder registerClasses(Class<?>... classes) {
            this.renamedClasses = classes.clone();
            return this;
        }

        public SessionMeshClient build() {
            SidecarHttp.checkUri(sidecar);
            SidecarAdmin.checkUri(admin);
            positive("connectTimeout", connectTimeout);
            positive("requestTimeout", requestTimeout);
            if (poolSize < 1 || poolSize > 10_000) {
                throw new IllegalArgumentException("poolSize = " + poolSize + ": expected 1..10000");
            }
            if (maxAnswerBytes < 1024) {
                throw new IllegalArgumentException("maxAnswerBytes = " + maxAnswerBytes + ": expected at least 1024");
            }
            if (classFilter == null) {
                throw new IllegalStateException("classFilter is required: name the packages session values may be"
                        + " decoded as, for instance .classFilter(ClassFilter.allowingPackages(\"com.example.bank\"))"
                        + " (a package includes those under it, and .andClasses(\"java.net.URL\") adds single classes;"
                        + " JDK value types and collections are always allowed)");
            }
            if (maxDepth < 1) {
                throw new IllegalArgumentException("maxDepth = " + maxDepth + ": expected at least 1");
            }
            if (maxObjects < 1) {
                throw new IllegalArgumentException("maxObjects = " + maxObjects + ": expected at least 1");
            }
            return new SessionMeshClient(this);
        }

        private static void positive(String name, Duration d) {
            if (d.isNegative() || d.isZero() || d.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(name + " = " + d + ": expected a positive duration");
            }
        }

        Builder copy() {
            Builder b = new Builder();
            b.sidecar = sidecar;
            b.admin = admin;
            b.adminToken = adminToken;
            b.connectTimeout = connectTimeout;
            b.requestTimeout = requestTimeout;
            b.poolSize = poolSize;
            b.maxAnswerBytes = maxAnswerBytes;
            b.classFilter = classFilter;
            b.maxDepth = maxDepth;
            b.maxObjects = maxObjects;
            b.saveMode = saveMode;
            b.compression = compression;
            b.metrics = metrics;
            b.renamedClasses = renamedClasses.clone();
            b.transport = transport;
            return b;
        }

        @Override
        public String toString() {
            return "sidecar " + sidecar + ", pool " + poolSize + ", timeouts " + connectTimeout + "/" + requestTimeout
                    + ", " + saveMode + ", registered " + Arrays.toString(renamedClasses);
        }
    }
}
