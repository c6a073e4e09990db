package io.sessionmesh.sidecar.registry;

import io.sessionmesh.registry.RegistryQueries;
import io.sessionmesh.registry.RegistryUnavailableException;
import io.sessionmesh.registry.SessionRow;
import io.sessionmesh.sidecar.master.MasterPool;
import io.sessionmesh.sidecar.master.MasterRouter;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * What an operator asks about sessions across every master and the registry (docs/operations.md, "The active-session
 * registry"): log a principal out everywhere, look a session up, count and list active sessions. The masters answer the
 * first two (they hold the truth); the registry, when this sidecar has one ({@code registry-url}), the counts and
 * lists. Registry queries block on JDBC, so they run on a thread of their own, at most {@link #MAX_QUEUED_QUERIES}
 * waiting; nothing here runs on an event loop.
 */
public final class SessionDirectory implements AutoCloseable {
    /** Registry queries waiting for the query thread at most; more are refused (UNAVAILABLE). */
    public static final int MAX_QUEUED_QUERIES = 16;
    /** The most rows a list or count-by answer gives. */
    public static final int MAX_ROWS = 10_000;

    private final MasterRouter router;
    private final RegistryQueries registry;
    private final ExecutorService queries;

    /** @param registry the registry's queries, or null when this sidecar has none */
    public SessionDirectory(MasterRouter router, RegistryQueries registry) {
        this.router = router;
        this.registry = registry;
        this.queries = registry == null ? null : new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(MAX_QUEUED_QUERIES), r -> {
                    Thread t = new Thread(r, "registry-queries");
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Refused: the registry is off here, unreachable, or busy; {@code status} is the one of PROTOCOL.md 2.3. */
    public static final class Refused extends RuntimeException {
        private final int status;

        public Refused(int status, String message) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /**
     * Deletes every session of {@code principal} on every master (a LOGOUT to each group's leader, in the order a move
     * needs: {@link MasterRouter#callEveryGroup}), each sidecar's copy invalidated before its master answers; a group
     * also drops the principal's sessions from its outbox, and answers once none it was sending is on its way. The
     * masters record the sessions as logged out in the registry. The answer lists what each master deleted, or why it
     * could not be asked; {@code complete} is true only when every group answered and no move began or ended
     * meanwhile.
     */
    public CompletableFuture<Map<String, Object>> logout(String principal) {
        TransportLimits.checkPrincipal(principal);
        return router.callEveryGroup(pool -> pool.call(c -> c.send(new MasterRequest.Logout(principal)))).thenApply(every -> {
            long deleted = 0;
            boolean complete = every.mapHeld();
            List<Map<String, Object>> masters = new ArrayList<>();
            for (int i = 0; i < every.pools().size(); i++) {
                MasterPool pool = every.pools().get(i);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("master", pool.name());
                m.put("leader", pool.leader()); // the replica that answered, in a group (the pool's name is its first)
                try {
                    long n = every.results().get(i).join();
                    m.put("deleted", n);
                    deleted += n;
                } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException error) {
                    complete = false;
                    m.put("error", Status.name(MasterException.statusOf(error)));
                    m.put("message", String.valueOf(MasterException.of(error) == null ? error
                            : MasterException.of(error).getMessage()));
                }
                masters.add(m);
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("deleted", deleted);
            body.put("complete", complete);
            if (!every.mapHeld()) {
                body.put("reason", "the cluster map changed while the groups were asked: ask again");
            }
            body.put("masters", masters);
            return body;
        });
    }

    /**
     * A session as its master holds it now (created, last use, expiry, principal) and, with a registry, its row
     * there; NOT_FOUND (a {@link MasterException}) when neither knows it.
     */
    public CompletableFuture<Map<String, Object>> lookup(String sessionId) {
        TransportLimits.checkSessionId(sessionId);
        CompletableFuture<Map<String, Object>> live = router.call(sessionId, c -> c.send(new MasterRequest.Describe(sessionId)))
                .handle((routed, error) -> {
                    if (error != null) {
                        if (MasterException.statusOf(error) == Status.NOT_FOUND) {
                            return null;
                        }
                        throw new java.util.concurrent.CompletionException(error);
                    }
                    MasterAnswer.Description d = routed.value();
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("master", routed.pool().name());
                    m.put("principal", d.principal());
                    m.put("created_at", Instant.ofEpochMilli(d.createdAtMillis()).toString());
                    m.put("last_seen", Instant.ofEpochMilli(d.lastAccessMillis()).toString());
                    m.put("expires_at", Instant.ofEpochMilli(d.expiresAtMillis()).toString());
                    m.put("idle_timeout_seconds", d.idleTimeoutMillis() / 1000);
                    m.put("version", d.registryVersion());
                    return m;
                });
        CompletableFuture<Optional<SessionRow>> row = registry == null ? CompletableFuture.completedFuture(Optional.empty())
                : query(() -> registry.lookup(sessionId)).exceptionally(e -> Optional.empty());
        return live.thenCombine(row, (m, r) -> {
            if (m == null && r.isEmpty()) {
                throw new MasterException(Status.NOT_FOUND, "no master holds that session"
                        + (registry == null ? "" : " and the registry has no row of it"));
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("id", sessionId);
            body.put("active", m != null);
            if (m != null) {
                body.putAll(m);
            }
            if (registry != null) {
                body.put("registry", r.<Object>map(SessionRow::toMap).orElse(null));
            }
            return body;
        });
    }

    /** Active sessions in the registry: in total, and by host or by principal ({@code by}: null, "host", "principal"). */
    public CompletableFuture<Map<String, Object>> count(String by, int limit) {
        int rows = checkLimit(limit);
        if (by != null && !by.equals("host") && !by.equals("principal")) {
            throw new IllegalArgumentException("by=" + by + ": expected host or principal");
        }
        return query(() -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("active", registry.countActive());
            if ("host".equals(by)) {
                body.put("by_host", registry.countActiveByHost(rows));
            } else if ("principal".equals(by)) {
                body.put("by_principal", registry.countActiveByPrincipal(rows));
            }
            return body;
        });
    }

    /** A principal's active sessions in the registry, newest first. */
    public CompletableFuture<Map<String, Object>> sessionsOf(String principal, int limit) {
        TransportLimits.checkPrincipal(principal);
        int rows = checkLimit(limit);
        return query(() -> {
            List<Map<String, Object>> sessions = registry.sessionsOf(principal, rows).stream().map(SessionRow::toMap).toList();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("principal", principal);
            body.put("count", sessions.size());
            body.put("sessions", sessions);
            return body;
        });
    }

    /**
     * Each master's registry writer as its STATS gives it: state (UP, DEGRADED, OFF), backlog, events written,
     * re-syncs and lag; a master that does not answer is listed with its error.
     */
    public CompletableFuture<Map<String, Object>> registryHealth() {
        List<MasterPool> pools = router.allPools();
        List<CompletableFuture<Map<String, Object>>> each = new ArrayList<>();
        for (MasterPool pool : pools) {
            each.add(pool.call(c -> c.send(new MasterRequest.Stats())).handle((json, error) -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("master", pool.name());
                if (error != null) {
                    m.put("state", "UNKNOWN");
                    m.put("error", String.valueOf(error.getMessage()));
                } else {
                    Map<String, Long> figures = registryFigures(json);
                    m.put("state", figures.getOrDefault("registry_enabled", 0L) == 0 ? "OFF"
                            : figures.getOrDefault("registry_degraded", 0L) != 0 ? "DEGRADED" : "UP");
                    m.putAll(figures);
                }
                return m;
            }));
        }
        return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<Map<String, Object>> masters = each.stream().map(CompletableFuture::join).toList();
            boolean degraded = masters.stream().anyMatch(m -> !"UP".equals(m.get("state")) && !"OFF".equals(m.get("state")));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", degraded ? "DEGRADED" : "UP");
            body.put("masters", masters);
            body.put("queries", registry == null ? "OFF" : "ON");
            return body;
        });
    }

    /** The {@code registry_*} figures of a master's STATS JSON. */
    static Map<String, Long> registryFigures(String statsJson) {
        Map<String, Long> m = new LinkedHashMap<>();
        try (JsonParser p = new JsonFactory().createParser(statsJson)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return m;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.startsWith("registry_") && value == JsonToken.VALUE_NUMBER_INT) {
                    m.put(name, p.getLongValue());
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            m.put("registry_unreadable_stats", 1L);
        }
        return m;
    }

    private static int checkLimit(int limit) {
        if (limit < 1 || limit > MAX_ROWS) {
            throw new IllegalArgumentException("limit=" + limit + ": expected 1.." + MAX_ROWS);
        }
        return limit;
    }

    @FunctionalInterface
    private interface Query<T> {
        T run();
    }

    private <T> CompletableFuture<T> query(Query<T> q) {
        if (registry == null) {
            return CompletableFuture.failedFuture(new Refused(Status.UNAVAILABLE,
                    "this sidecar has no registry: start it with --registry-url jdbc:postgresql://host:port/db"));
        }
        CompletableFuture<T> answer = new CompletableFuture<>();
        try {
            queries.execute(() -> {
                try {
                    answer.complete(q.run());
                } catch (RegistryUnavailableException e) {
                    answer.completeExceptionally(new Refused(Status.UNAVAILABLE, e.getMessage()));
                } catch (RuntimeException e) {
                    answer.completeExceptionally(e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            answer.completeExceptionally(new Refused(Status.UNAVAILABLE, MAX_QUEUED_QUERIES
                    + " registry queries are waiting already; try again"));
        }
        return answer;
    }

    @Override
    public void close() {
        if (queries != null) {
            queries.shutdownNow();
        }
        if (registry != null) {
            registry.close();
        }
    }
}
