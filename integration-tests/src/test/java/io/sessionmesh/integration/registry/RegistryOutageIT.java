package io.sessionmesh.integration.registry;

import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.PostgresServer;
import io.sessionmesh.testing.ServerProcess;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The database stopped and restarted under traffic (a private PostgreSQL this test owns): no session operation fails;
 * the master says DEGRADED with its backlog while the database is away; a short outage is caught up from the buffer,
 * a long one (more events than the buffer holds) by a full re-sync; either way the registry converges to the store's
 * truth, compared row by row.
 */
class RegistryOutageIT {
    static final Pattern ID = Pattern.compile("\"id\":\"([A-Za-z0-9_-]+)\"");

    /** What the traffic did to one session: the registry row it expects. */
    static final class Expected {
        volatile String principal;
        volatile long version = 1;
        volatile boolean deleted;
    }

    @Test
    void theRegistryCatchesUpAfterAShortOutageAndReSyncsAfterALongOne() throws Exception {
        try (PostgresServer pg = PostgresServer.start();
             ServerProcess master = ServerProcess.start(ServerProcess.command(LogoutEverywhereIT.jar("master.jar",
                             "master-store/target/sessionmesh-master.jar"), "--port", "0", "--io-threads", "1",
                     "--registry-url", pg.jdbcUrl(), "--registry-buffer", "1000", "--registry-flush", "5ms",
                     "--registry-connect-timeout", "1s", "--config", RegistryRows.settingsFile().toString()));
             ServerProcess sidecar = ServerProcess.start(ServerProcess.command(LogoutEverywhereIT.jar("sidecar.jar",
                             "slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", "127.0.0.1:" + master.port(),
                     "--port", "0", "--admin-port", "0", "--io-threads", "1"))) {
            sidecar.awaitHealthy("\"valid\":true");
            URI api = URI.create("http://127.0.0.1:" + sidecar.port());
            URI admin = URI.create("http://127.0.0.1:" + sidecar.port("admin"));
            Map<String, Expected> sessions = new ConcurrentHashMap<>();
            List<String> failures = new CopyOnWriteArrayList<>();
            AtomicLong pauseMillis = new AtomicLong(10);
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong operations = new AtomicLong();
            Thread traffic = new Thread(() -> {
                long n = 0;
                while (running.get()) {
                    try {
                        n++;
                        step(api, n, sessions, failures, operations);
                        long pause = pauseMillis.get();
                        if (pause > 0) {
                            Thread.sleep(pause);
                        }
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        failures.add(e.toString());
                    }
                }
            }, "traffic");
            traffic.start();
            try {
                Await.until("rows in the registry", Duration.ofSeconds(30), () -> RegistryRows.all(pg.jdbcUrl()).size() > 20);
                long resyncsBefore = figure(admin, "registry_resyncs");

                // a short outage: fewer events than the buffer holds
                pg.stop();
                Await.until("the master to say DEGRADED with a backlog", Duration.ofSeconds(30),
                        () -> health(admin).contains("\"state\":\"DEGRADED\"") && figure(admin, "registry_backlog") > 0);
                Thread.sleep(2000);
                assertTrue(figure(admin, "registry_backlog") < 1000, "the short outage stays within the buffer");
                pg.startAgain();
                awaitCaughtUp(admin);
                assertEquals(resyncsBefore, figure(admin, "registry_resyncs"), "a short outage is caught up, not re-synced");
                assertEquals(0, figure(admin, "registry_resync_covered_events"));

                // a long one: the traffic at full speed overflows the buffer
                pauseMillis.set(0);
                pg.stop();
                Await.until("the buffer to overflow", Duration.ofSeconds(60),
                        () -> figure(admin, "registry_resync_covered_events") > 0);
                Thread.sleep(500);
                pg.startAgain();
                awaitCaughtUp(admin);
                assertTrue(figure(admin, "registry_resyncs") > resyncsBefore, "the overflow was re-synced");
            } finally {
                running.set(false);
                traffic.join(10_000);
            }
            assertEquals(List.of(), failures, "no session operation failed while the database was away");
            assertTrue(operations.get() > 1000, "traffic ran: " + operations.get() + " operations");
            awaitCaughtUp(admin);

            // row by row: the registry against the store (DESCRIBE through the admin lookup) and what the traffic did
            Map<String, RegistryRows.Row> rows = RegistryRows.all(pg.jdbcUrl());
            long live = 0;
            for (Map.Entry<String, Expected> e : sessions.entrySet()) {
                String id = e.getKey();
                Expected x = e.getValue();
                RegistryRows.Row row = rows.get(RegistryRows.key(id));
                if (x.deleted) {
                    // a session that lived and died within an overflowed outage has no row: the re-sync that covered
                    // its events found it gone (counted in registry_resync_covered_events); any row it has is ended
                    assertTrue(row == null || row.state().equals("deleted") || row.state().equals("ended"), id + ": " + row);
                    continue;
                }
                assertTrue(row != null, "no row for the live session " + id);
                live++;
                HttpResponse<String> d = LogoutEverywhereIT.call("GET", admin.resolve("/admin/registry/sessions/" + id), null);
                assertEquals(200, d.statusCode(), d.body());
                assertTrue(d.body().contains("\"active\":true"), d.body());
                assertTrue(d.body().contains("\"version\":" + x.version), "the store's version of " + id + ": " + d.body());
                assertEquals(new RegistryRows.Row(RegistryRows.key(id), x.version, "active", x.principal, "127.0.0.1", row.owner()), row);
            }
            long activeRows = rows.values().stream().filter(r -> r.state().equals("active")).count();
            assertEquals(live, activeRows, "no active row for a session the store does not hold");
            System.out.printf("RegistryOutageIT: %d operations, 0 failed; %d sessions, %d live, %d rows compared; "
                    + "%d re-syncs, %d events covered by them, %d events written%n", operations.get(), sessions.size(), live,
                    rows.size(), figure(admin, "registry_resyncs"), figure(admin, "registry_resync_covered_events"),
                    figure(admin, "registry_written"));
        }
    }

    /** One step of traffic: a new session for one of 50 users, written; every third changes user; every fourth is deleted. */
    static void step(URI api, long n, Map<String, Expected> sessions, List<String> failures, AtomicLong operations)
            throws Exception {
        String principal = "user" + (n % 50);
        HttpResponse<String> c = LogoutEverywhereIT.call("POST", api.resolve("/v1/sessions"), "{\"principal\":\"" + principal + "\"}");
        operations.incrementAndGet();
        if (c.statusCode() != 201) {
            failures.add("create: " + c.statusCode() + " " + c.body());
            return;
        }
        Matcher m = ID.matcher(c.body());
        m.find();
        String id = m.group(1);
        Expected x = new Expected();
        x.principal = principal;
        sessions.put(id, x);
        expect(200, LogoutEverywhereIT.call("PATCH", api.resolve("/v1/sessions/" + id), "{\"sections\":{\"cart\":{\"set\":{\"n\":\"Kg==\"}}}}"),
                "write", failures, operations);
        if (n % 3 == 0) {
            String next = "user" + ((n + 7) % 50);
            if (expect(204, LogoutEverywhereIT.call("PUT", api.resolve("/v1/sessions/" + id + "/principal"),
                    "{\"principal\":\"" + next + "\"}"), "principal", failures, operations)) {
                x.principal = next;
                x.version++;
            }
        }
        if (n % 4 == 0 && expect(204, LogoutEverywhereIT.call("DELETE", api.resolve("/v1/sessions/" + id), null), "delete",
                failures, operations)) {
            x.deleted = true;
            x.version++;
        }
    }

    static boolean expect(int status, HttpResponse<String> r, String what, List<String> failures, AtomicLong operations) {
        operations.incrementAndGet();
        if (r.statusCode() != status) {
            failures.add(what + ": " + r.statusCode() + " " + r.body());
            return false;
        }
        return true;
    }

    static String health(URI admin) throws Exception {
        return LogoutEverywhereIT.call("GET", admin.resolve("/admin/registry/health"), null).body();
    }

    /** A registry figure of the (one) master, through the sidecar's registry health. */
    static long figure(URI admin, String name) throws Exception {
        Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(health(admin));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    static void awaitCaughtUp(URI admin) {
        Await.until("the registry to catch up", Duration.ofSeconds(60), () -> {
            String h = health(admin);
            return h.contains("\"state\":\"UP\"") && figure(admin, "registry_backlog") == 0;
        });
    }
}
