package io.sessionmesh.sidecar.http;

import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.TransportLimits;
import io.sessionmesh.sidecar.cache.SessionEntry;
import io.sessionmesh.sidecar.master.Lease;
import io.sessionmesh.sidecar.master.MasterPool;
import io.sessionmesh.sidecar.master.MasterRouter;
import io.sessionmesh.wire.placement.GroupMap;
import io.sessionmesh.sidecar.registry.SessionDirectory;
import io.sessionmesh.sidecar.service.SidecarService;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.io.ServerMeters;
import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpContentException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The operators' endpoint, on its own port: health, figures (JSON and Prometheus text), what is cached for a
 * session (names and sizes, never values), and eviction. With an admin token configured, every call needs
 * {@code Authorization: Bearer <token>} (401 otherwise). Most calls are local and answered at once; those about
 * sessions across masters and the registry ({@link SessionDirectory}) answer later, the connection reading nothing
 * more meanwhile.
 */
@ChannelHandler.Sharable
final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger log = LoggerFactory.getLogger(AdminHandler.class);
    /** Set on a connection once a request that ends it was read: nothing read after it is acted on (RFC 9112 9.6). */
    private static final AttributeKey<Boolean> LAST_REQUEST_READ = AttributeKey.valueOf("sessionmesh.admin.lastRequestRead");
    /**
     * Set on a connection while an answer is being made (a call to the masters or the registry), removed once it is
     * written: the requests read meanwhile. The codec goes on decoding what one read brought after reading stops, so a
     * request pipelined behind a slow call arrives before that call is answered. Held, in order, and served then.
     */
    private static final AttributeKey<ArrayDeque<FullHttpRequest>> HELD = AttributeKey.valueOf("sessionmesh.admin.held");
    /** Requests one connection may pipeline behind an answer being made; one more closes the connection. */
    static final int MAX_HELD_REQUESTS = 16;

    private final SidecarService service;
    private final byte[] token;
    private final OperatorsPage page = new OperatorsPage();
    /** The principal's live sessions' answer, in the form the request asks for (the API's PRINCIPAL_SESSIONS). */
    private final MessageForms forms;
    /** Without a token: the Host headers answered (DNS rebinding); null with one (the token decides). */
    private final HostAllowList hosts;

    /** An admin endpoint on loopback (tests): the default codecs' limits, the loopback names. */
    AdminHandler(SidecarService service, String token) {
        this(service, token, new MessageForms(new io.sessionmesh.wire.transport.BinaryTransportCodec(),
                new io.sessionmesh.wire.transport.JsonTransportCodec()), new HostAllowList(List.of(), List.of()));
    }

    /**
     * @param hosts the Host headers answered when there is no token (then the endpoint is on loopback, and a page that a
     *     DNS name pointed at 127.0.0.1 must not reach it); ignored with a token
     */
    AdminHandler(SidecarService service, String token, MessageForms forms, HostAllowList hosts) {
        this.service = service;
        this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
        this.forms = forms;
        this.hosts = token == null ? hosts : null;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (ctx.channel().hasAttr(LAST_REQUEST_READ)) {
            return; // pipelined behind the connection's last request: never executed (the request is released)
        }
        ArrayDeque<FullHttpRequest> held = ctx.channel().attr(HELD).get();
        if (held != null) {
            if (held.size() >= MAX_HELD_REQUESTS) {
                log.debug("closing admin connection {}: more than {} requests pipelined behind an answer being made",
                        ctx.channel().remoteAddress(), MAX_HELD_REQUESTS);
                ctx.close();
                return;
            }
            held.add(request.retain());
            return;
        }
        serve(ctx, request);
    }

    /** Answers {@code request}: at once, or later (then holding what comes meanwhile, {@link #HELD}). */
    private void serve(ChannelHandlerContext ctx, FullHttpRequest request) {
        CompletableFuture<FullHttpResponse> answer;
        // A request the codec could not read (the rest of the stream is dropped) or whose body was over max-body
        // (skipped, so its content is empty) is answered as such, never acted on with what was left of it.
        boolean decoded = request.decoderResult().isSuccess();
        // what the logs name the call by: a session id in its path or query is a bearer secret, never logged whole
        String call = request.method() + " " + io.sessionmesh.wire.transport.RedactedIds.redactTarget(request.uri());
        try {
            answer = decoded ? handle(request) : CompletableFuture.completedFuture(undecodable(request));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request) && decoded;
        if (!keepAlive) {
            ctx.channel().attr(LAST_REQUEST_READ).set(Boolean.TRUE);
            ctx.channel().config().setAutoRead(false);
        }
        if (answer.isDone()) {
            send(ctx, answer.handle((r, e) -> e == null ? r : failed(call, e)).join(), keepAlive);
            return;
        }
        // Calls that ask the masters or the registry answer later: nothing more is read from this connection until
        // then, and what was read already waits (HELD), so answers still go out in request order.
        ctx.channel().config().setAutoRead(false);
        ctx.channel().attr(HELD).set(new ArrayDeque<>());
        answer.handle((r, e) -> e == null ? r : failed(call, e)).whenComplete((response, error) -> ctx.executor().execute(() -> {
            // not reading, requests held: a connection left so after a failure would hold its slot for good
            Throwable failure = error;
            if (failure == null) {
                try {
                    ArrayDeque<FullHttpRequest> held = ctx.channel().attr(HELD).getAndSet(null);
                    send(ctx, response, keepAlive);
                    serveHeld(ctx, held);
                    if (keepAlive && ctx.channel().attr(HELD).get() == null && !ctx.channel().hasAttr(LAST_REQUEST_READ)) {
                        ctx.channel().config().setAutoRead(true);
                    }
                } catch (RuntimeException e) {
                    failure = e;
                }
            }
            if (failure != null) {
                log.error("admin {}: closing the connection, its answer could not be written", call, failure);
                ctx.close();
            }
        }));
    }

    /**
     * Serves the requests held while an answer was made, in order; once one is answered later, the rest wait for it in
     * its turn (they go to the front of its queue, which nothing has been added to yet).
     */
    private void serveHeld(ChannelHandlerContext ctx, ArrayDeque<FullHttpRequest> held) {
        while (held != null && !held.isEmpty()) {
            FullHttpRequest next = held.poll();
            try {
                if (ctx.channel().isActive() && !ctx.channel().hasAttr(LAST_REQUEST_READ)) {
                    serve(ctx, next);
                }
            } finally {
                next.release();
            }
            ArrayDeque<FullHttpRequest> later = ctx.channel().attr(HELD).get();
            if (later != null) {
                later.addAll(held);
                return;
            }
        }
    }

    /** Requests held for a connection that closed are dropped. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        ArrayDeque<FullHttpRequest> held = ctx.channel().attr(HELD).getAndSet(null);
        if (held != null) {
            held.forEach(FullHttpRequest::release);
        }
        super.channelInactive(ctx);
    }

    /**
     * Unused for {@code http-idle-timeout}, with no answer being made (reading is off while one is): closed, as the API
     * port closes its idle connections. Before, an idle admin connection was never closed and held its slot.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent && ctx.channel().config().isAutoRead()) {
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    /** The error answer of a failed call: 400 for bad input, the status of a master's or the registry's refusal. */
    private static FullHttpResponse failed(String call, Throwable failure) {
        Throwable e = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (e instanceof IllegalArgumentException) {
            return json(HttpResponseStatus.BAD_REQUEST, error("BAD_REQUEST", e.getMessage()));
        }
        if (e instanceof io.sessionmesh.wire.transport.MalformedMessageException m) {
            return json(HttpStatuses.of(m.status()), error(Status.name(m.status()), m.getMessage()));
        }
        if (e instanceof SessionDirectory.Refused r) {
            return json(HttpStatuses.of(r.status()), error(Status.name(r.status()), r.getMessage()));
        }
        MasterException m = MasterException.of(e);
        if (m != null) {
            return json(HttpStatuses.of(m.status()), error(Status.name(m.status()), m.getMessage()));
        }
        log.error("admin {} failed", call, e);
        return json(HttpResponseStatus.INTERNAL_SERVER_ERROR, error("INTERNAL", "admin call failed: " + e));
    }

    private static void send(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
        HttpUtil.setContentLength(response, response.content().readableBytes());
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(response, ctx.voidPromise());
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static FullHttpResponse undecodable(FullHttpRequest request) {
        Throwable cause = request.decoderResult().cause();
        boolean tooLarge = cause instanceof TooLongHttpContentException || cause instanceof TooLongHttpHeaderException
                || cause instanceof TooLongHttpLineException;
        return json(tooLarge ? HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE : HttpResponseStatus.BAD_REQUEST,
                error(tooLarge ? "TOO_LARGE" : "BAD_REQUEST", "admin request: " + cause.getMessage()));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("closing admin connection {} after {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    private CompletableFuture<FullHttpResponse> handle(FullHttpRequest request) {
        if (hosts != null && !hosts.allows(request.headers())) {
            return CompletableFuture.completedFuture(json(HttpResponseStatus.MISDIRECTED_REQUEST,
                    error("MISDIRECTED", hosts.refusal(request.headers()))));
        }
        String crossSite = crossSite(request);
        if (crossSite != null) {
            return CompletableFuture.completedFuture(json(HttpResponseStatus.FORBIDDEN, error("FORBIDDEN", crossSite)));
        }
        if (OperatorsPage.isPublic(request)) { // the page and its script hold no figures: no token (OperatorsPage)
            return CompletableFuture.completedFuture(page.answer(request.method(), new QueryStringDecoder(request.uri()).path()));
        }
        if (!authorized(request.headers(), token)) {
            return CompletableFuture.completedFuture(unauthorized());
        }
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path = uri.path();
        HttpMethod method = request.method();
        if (path.startsWith(PRINCIPALS) && path.endsWith(LIVE_SESSIONS) && path.length() > PRINCIPALS.length() + LIVE_SESSIONS.length()) {
            if (!method.equals(HttpMethod.GET)) {
                FullHttpResponse r = json(HttpResponseStatus.METHOD_NOT_ALLOWED, error("BAD_REQUEST", method
                        + " is not allowed on " + path + "; allowed: GET"));
                r.headers().set(HttpHeaderNames.ALLOW, HttpMethod.GET.name());
                return CompletableFuture.completedFuture(r);
            }
            boolean binary = MessageForms.acceptsBinary(request);
            String principal = ApiRoutes.principal(uri.rawPath(), PRINCIPALS, LIVE_SESSIONS);
            return service.sessionsOf(principal).thenApply(s -> forms.answer(HttpResponseStatus.OK, s, binary));
        }
        SessionDirectory directory = service.directory();
        if (path.startsWith(PRINCIPALS)) {
            String[] parts = path.substring(PRINCIPALS.length()).split("/", -1);
            if (parts.length == 2 && parts[1].equals("logout") && method.equals(HttpMethod.POST)) {
                return ok(directory.logout(principal(parts[0])));
            }
            if (parts.length == 2 && parts[1].equals("sessions") && method.equals(HttpMethod.GET)) {
                return ok(directory.sessionsOf(principal(parts[0]), limit(uri)));
            }
        }
        if (path.equals("/admin/registry/count") && method.equals(HttpMethod.GET)) {
            List<String> by = uri.parameters().get("by");
            return ok(directory.count(by == null ? null : by.get(0), limit(uri)));
        }
        if (path.equals("/admin/registry/health") && method.equals(HttpMethod.GET)) {
            return ok(directory.registryHealth());
        }
        if (path.startsWith(REGISTRY_SESSIONS) && method.equals(HttpMethod.GET)) {
            return ok(directory.lookup(path.substring(REGISTRY_SESSIONS.length())));
        }
        return CompletableFuture.completedFuture(local(uri, path, method));
    }

    private static final String PRINCIPALS = "/admin/principals/";
    /** {@code GET /admin/principals/{principal}/live-sessions}: the masters' list (it was the REST API's). */
    private static final String LIVE_SESSIONS = "/live-sessions";
    /** Sec-Fetch-Site values a browser sends for a request the admin origin itself made, or a user typed. */
    private static final java.util.Set<String> OWN_SITE = java.util.Set.of("same-origin", "none");
    private static final String REGISTRY_SESSIONS = "/admin/registry/sessions/";
    /** Rows a list or count-by answer gives unless {@code limit} says otherwise. */
    static final int DEFAULT_LIMIT = 100;

    /** A principal from a path segment, percent-decoded (it may hold any character but controls). */
    private static String principal(String segment) {
        return TransportLimits.checkPrincipal(QueryStringDecoder.decodeComponent(segment));
    }

    private static int limit(QueryStringDecoder uri) {
        List<String> limit = uri.parameters().get("limit");
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        try {
            return Integer.parseInt(limit.get(0));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("limit=" + limit.get(0) + " is not a number");
        }
    }

    private static CompletableFuture<FullHttpResponse> ok(CompletableFuture<Map<String, Object>> body) {
        return body.thenApply(b -> json(HttpResponseStatus.OK, b));
    }

    /** The calls answered from this sidecar alone, at once. */
    private FullHttpResponse local(QueryStringDecoder uri, String path, HttpMethod method) {
        if (OperatorsPage.serves(path)) {
            return page.answer(method, path); // a method other than GET and HEAD: 405
        }
        if (path.equals("/admin/health") && method.equals(HttpMethod.GET)) {
            return health();
        }
        if (path.equals("/admin/stats") && method.equals(HttpMethod.GET)) {
            return json(HttpResponseStatus.OK, Json.write(stats()));
        }
        if (path.equals("/metrics") && (method.equals(HttpMethod.GET) || method.equals(HttpMethod.HEAD))) {
            // HEAD: the same answer; the HTTP codec sends a HEAD's headers (Content-Length included) without the body
            byte[] text = service.metrics().prometheusText().getBytes(StandardCharsets.UTF_8);
            return MessageForms.response(HttpResponseStatus.OK, Unpooled.wrappedBuffer(text),
                    ServerMeters.PROMETHEUS_CONTENT_TYPE);
        }
        if (path.startsWith("/admin/sessions/") && method.equals(HttpMethod.GET)) {
            return session(path.substring("/admin/sessions/".length()));
        }
        if (path.equals("/admin/cache") && method.equals(HttpMethod.DELETE)) {
            List<String> session = uri.parameters().get("session");
            if (session == null) {
                long before = service.cache().entries();
                service.cache().evictAll();
                return json(HttpResponseStatus.OK, Json.write(Map.of("evicted", before)));
            }
            String id = TransportLimits.checkSessionId(session.get(0));
            boolean was = service.cache().contains(id);
            service.cache().evict(id);
            return json(HttpResponseStatus.OK, Json.write(Map.of("evicted", was ? 1 : 0)));
        }
        return json(HttpResponseStatus.NOT_FOUND, error("NOT_FOUND", "no such admin endpoint: " + method + " " + path
                + "; see GET /admin/ (the operators' page), /admin/health, /admin/stats, /metrics, /admin/sessions/{id}, DELETE /admin/cache, "
                + "POST /admin/principals/{principal}/logout, GET /admin/principals/{principal}/sessions, "
                + "GET /admin/principals/{principal}/live-sessions, "
                + "GET /admin/registry/count, /admin/registry/health, /admin/registry/sessions/{id}"));
    }

    /**
     * Why a request that changes something (any method but GET, HEAD and OPTIONS) looks sent by a page of another
     * site (CSRF from a browser on the host: the admin port has no token on loopback), or null. A browser names the
     * page's site in {@code Sec-Fetch-Site} and its origin in {@code Origin}; only the admin origin itself (the operators'
     * page) or no browser at all (curl sends neither) is let through. A form post from another site cannot leave them
     * out.
     */
    static String crossSite(FullHttpRequest request) {
        HttpMethod m = request.method();
        if (m.equals(HttpMethod.GET) || m.equals(HttpMethod.HEAD) || m.equals(HttpMethod.OPTIONS)) {
            return null;
        }
        String site = request.headers().get("Sec-Fetch-Site");
        String origin = request.headers().get(HttpHeaderNames.ORIGIN);
        String from = origin == null ? "" : ", Origin: " + printable(origin);
        if (site != null && !OWN_SITE.contains(site.trim().toLowerCase(java.util.Locale.ROOT))) {
            return "a " + m + " from a page of another site (Sec-Fetch-Site: " + printable(site) + from + ") is "
                    + "refused: admin calls that change something come from the operators' page or a tool, never from "
                    + "another site";
        }
        if (origin != null) {
            String host = request.headers().get(HttpHeaderNames.HOST);
            String originHost;
            try {
                java.net.URI u = java.net.URI.create(origin.trim());
                originHost = u.getHost() == null ? null : u.getRawAuthority();
            } catch (IllegalArgumentException e) {
                originHost = null;
            }
            if (originHost == null || host == null || !originHost.equalsIgnoreCase(host.trim())) {
                return "a " + m + " from the page of " + printable(origin) + " (Origin) is refused: admin calls that "
                        + "change something come from the operators' page or a tool, never from another site";
            }
        }
        return null;
    }

    /** A header's value for a message: at most 100 characters, control characters as '?'. */
    private static String printable(String value) {
        String shown = value.length() > 100 ? value.substring(0, 100) + "..." : value;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }

    /** The 401 an admin call without the right token gets. */
    static FullHttpResponse unauthorized() {
        FullHttpResponse r = json(HttpResponseStatus.UNAUTHORIZED, error("UNAUTHORIZED",
                "admin calls need the header Authorization: Bearer <admin token>"));
        r.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"sessionmesh-admin\"");
        return r;
    }

    /** Whether these headers carry the admin token (always, when there is none); constant time. */
    static boolean authorized(io.netty.handler.codec.http.HttpHeaders headers, byte[] token) {
        if (token == null) {
            return true;
        }
        String header = headers.get(HttpHeaderNames.AUTHORIZATION);
        if (header == null || !header.startsWith("Bearer ")) {
            return false;
        }
        byte[] given = header.substring("Bearer ".length()).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, token); // constant time
    }

    private FullHttpResponse health() {
        List<Map<String, Object>> masters = new ArrayList<>();
        boolean up = false;
        for (MasterPool p : service.router().pools()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("address", p.name());
            m.put("leader", p.leader());
            // FORBIDDEN: the master refuses this sidecar's holder id (another peer registered it first); a restart helps
            m.put("status", p.isUp() ? "UP" : p.forbidden() != null ? "FORBIDDEN" : "DOWN");
            m.put("connections", p.openConnections());
            m.put("lease", leaseOf(p));
            if (!p.isUp()) {
                m.put("error", p.lastError());
            }
            masters.add(m);
            up |= p.isUp();
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", up ? "UP" : "DOWN");
        body.put("masters", masters);
        body.put("cluster", cluster());
        return json(up ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE, Json.write(body));
    }

    /** The cluster map this sidecar routes by (PROTOCOL.md 3.9). */
    private Map<String, Object> cluster() {
        Map<String, Object> m = new LinkedHashMap<>();
        MasterRouter router = service.router();
        m.put("routing", router.routing());
        GroupMap map = router.map();
        if (map != null) {
            m.put("epoch", map.epoch());
            m.put("state", map.moving() ? "MOVING" : "STABLE");
            m.put("groups", map.groups().stream().map(g -> String.join("|", g)).toList());
            if (map.moving()) {
                m.put("groups_before", map.previous().stream().map(g -> String.join("|", g)).toList());
            }
        }
        return m;
    }

    Map<String, Object> stats() {
        Map<String, Object> m = service.metrics().snapshot();
        Map<String, Object> cache = new LinkedHashMap<>();
        cache.put("entries", service.cache().entries());
        cache.put("bytes", service.cache().weightedBytes());
        cache.put("evictions", service.cache().evictedBySize());
        cache.put("expirations", service.cache().expired());
        cache.put("fills_refused", service.cache().fillsRefused());
        m.put("cache", cache);
        m.put("read_misses_by_cause", service.cache().readMisses());
        m.put("section_misses_by_cause", service.cache().sectionMisses());
        m.put("pending_touches", service.pendingTouches());
        m.put("masters_up", service.router().pools().stream().filter(MasterPool::isUp).count());
        m.put("master_leader_changes", service.router().pools().stream().mapToLong(MasterPool::leaderChanges).sum());
        long renewals = 0;
        long expiries = 0;
        long valid = 0;
        long now = System.nanoTime();
        for (MasterPool p : service.router().pools()) {
            renewals += p.lease().renewals();
            expiries += p.lease().expiries();
            valid += p.lease().isValid(now) ? 1 : 0;
        }
        Map<String, Object> leases = new LinkedHashMap<>();
        leases.put("valid", valid);
        leases.put("renewals", renewals);
        leases.put("expiries", expiries);
        m.put("leases", leases);
        return m;
    }

    private static Map<String, Object> leaseOf(MasterPool p) {
        Lease lease = p.lease();
        long now = System.nanoTime();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("valid", lease.isValid(now));
        m.put("epoch", lease.epoch());
        m.put("remaining_ms", lease.remainingNanos(now) / 1_000_000);
        m.put("lease_ms", lease.leaseMillis());
        m.put("renewals", lease.renewals());
        m.put("expiries", lease.expiries());
        m.put("losses", lease.losses());
        return m;
    }

    private FullHttpResponse session(String raw) {
        String id = TransportLimits.checkSessionId(raw);
        SessionEntry e = service.cache().peek(id);
        if (e == null) {
            return json(HttpResponseStatus.NOT_FOUND, error("NOT_FOUND", "nothing is cached for that session"));
        }
        Map<String, Object> sections = new LinkedHashMap<>();
        for (EncodedSection s : e.sections()) {
            Map<String, Object> section = new LinkedHashMap<>();
            section.put("version", s.version());
            section.put("bytes", s.encodedSize());
            section.put("attributes", s.attributeSizes());
            sections.put(s.name(), section);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sections", sections);
        return json(HttpResponseStatus.OK, Json.write(body));
    }

    static Map<String, Object> error(String code, String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", code);
        m.put("message", message);
        return m;
    }

    static FullHttpResponse json(HttpResponseStatus status, Map<String, Object> body) {
        return json(status, Json.write(body));
    }

    private static FullHttpResponse json(HttpResponseStatus status, String body) {
        return MessageForms.response(status, Unpooled.wrappedBuffer(body.getBytes(StandardCharsets.UTF_8)), MessageForms.JSON);
    }
}
