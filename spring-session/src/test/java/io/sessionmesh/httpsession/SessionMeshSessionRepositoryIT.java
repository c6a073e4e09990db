package io.sessionmesh.httpsession;

import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.spring.SessionMeshAutoConfiguration;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.testing.ServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.FlushMode;
import org.springframework.session.SaveMode;
import org.springframework.session.events.AbstractSessionEvent;
import org.springframework.session.events.SessionCreatedEvent;
import org.springframework.session.events.SessionDeletedEvent;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The repository against a real master and sidecar (processes on loopback): the behaviours Spring Session's own
 * repository integration tests check, in our words (docs/http-session.md lists them). The idle timeout is read back
 * from the master itself (the sidecar's admin lookup, DESCRIBE), so "the expiry is the master's" is checked, not
 * assumed.
 */
class SessionMeshSessionRepositoryIT {
    static ServerProcess master;
    static ServerProcess sidecar;
    static SessionMeshClient client;

    /** The pause after which a session with a 1 s idle timeout is gone: the timeout and a margin. */
    static final Duration EXPIRY_PAUSE = Duration.ofMillis(2500);

    SessionMeshSessionRepository repository;
    final List<AbstractSessionEvent> events = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        master = ServerProcess.start(ServerProcess.command(ServerProcess.jar("master.jar",
                "../master-store/target/sessionmesh-master.jar"), "--port", "0"));
        sidecar = ServerProcess.start(ServerProcess.command(ServerProcess.jar("sidecar.jar",
                "../slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", "127.0.0.1:" + master.port(), "--port", "0",
                "--admin-port", "0"));
        sidecar.awaitHealthy();
        client = SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:" + sidecar.port()))
                .admin(URI.create("http://127.0.0.1:" + sidecar.port("admin")))
                .classFilter(ClassFilter.allowingPackages("io.sessionmesh.httpsession")).build();
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (sidecar != null) {
            sidecar.close();
        }
        if (master != null) {
            master.close();
        }
    }

    @BeforeEach
    void repository() {
        repository = new SessionMeshSessionRepository(client, new AttributeSections("http", List.of("cart")));
        repository.setApplicationEventPublisher(e -> events.add((AbstractSessionEvent) e));
    }

    /** A new session with one attribute, saved. */
    SessionMeshHttpSession saved(String name, Object value) {
        SessionMeshHttpSession s = repository.createSession();
        s.setAttribute(name, value);
        repository.save(s);
        return s;
    }

    /** The idle timeout the master holds for a session, in seconds (the sidecar's admin lookup: DESCRIBE). */
    static long masterIdleTimeoutSeconds(String id) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + sidecar.port("admin") + "/admin/registry/sessions/" + id)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        Matcher m = Pattern.compile("\"idle_timeout_seconds\":(\\d+)").matcher(r.body());
        assertTrue(m.find(), r.body());
        return Long.parseLong(m.group(1));
    }

    @Test
    void saveThenFind_returnsTheAttributesAndTimes() {
        SessionMeshHttpSession s = repository.createSession();
        s.setAttribute("user", "alice");
        s.setAttribute("cart.items", new ArrayList<>(List.of("book", "pen")));
        repository.save(s);

        SessionMeshHttpSession found = repository.findById(s.getId());
        assertNotNull(found);
        assertEquals(s.getId(), found.getId());
        assertEquals("alice", found.getAttribute("user"));
        assertEquals(List.of("book", "pen"), found.getAttribute("cart.items"));
        assertEquals(Set.of("user", "cart.items"), found.getAttributeNames());
        assertEquals(s.getCreationTime().toEpochMilli(), found.getCreationTime().toEpochMilli());
        assertEquals(SessionMeshSessionRepository.DEFAULT_MAX_INACTIVE_INTERVAL, found.getMaxInactiveInterval());
        // the mapping rule: cart.items is the attribute items of the section cart, user is in the default section
        assertEquals(List.of("book", "pen"), client.getSession(s.getId(), "cart").section("cart").getAttribute("items"));
        assertEquals("alice", client.getSession(s.getId(), "http").section("http").getAttribute("user"));
    }

    @Test
    void aSessionNeverSaved_isNotFound() {
        SessionMeshHttpSession s = repository.createSession();
        s.setAttribute("a", "b");
        assertNull(repository.findById(s.getId()));
    }

    @Test
    void unknownAndImpossibleIds_areNotFound() {
        assertNull(repository.findById("NoSuchSessionAnywhere0123"));
        assertNull(repository.findById("short"));
        assertNull(repository.findById("has a space in it, not an id"));
        assertNull(repository.findById(null));
    }

    @Test
    void defaultMaxInactiveInterval_isTheMastersIdleTimeout() throws Exception {
        repository.setDefaultMaxInactiveInterval(Duration.ofMinutes(7));
        SessionMeshHttpSession s = saved("a", "b");
        assertEquals(420, masterIdleTimeoutSeconds(s.getId()));
        assertEquals(Duration.ofMinutes(7), repository.findById(s.getId()).getMaxInactiveInterval());
    }

    @Test
    void customMaxInactiveInterval_beforeAndAfterTheFirstSave_isTheMasters() throws Exception {
        SessionMeshHttpSession s = repository.createSession();
        s.setMaxInactiveInterval(Duration.ofSeconds(77));
        repository.save(s);
        assertEquals(77, masterIdleTimeoutSeconds(s.getId()));

        SessionMeshHttpSession found = repository.findById(s.getId());
        assertEquals(Duration.ofSeconds(77), found.getMaxInactiveInterval());
        found.setMaxInactiveInterval(Duration.ofSeconds(99));
        repository.save(found);
        assertEquals(99, masterIdleTimeoutSeconds(s.getId()));
        assertEquals(Duration.ofSeconds(99), repository.findById(s.getId()).getMaxInactiveInterval());
        assertThrows(IllegalArgumentException.class, () -> found.setMaxInactiveInterval(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> found.setMaxInactiveInterval(Duration.ofSeconds(-1)));
    }

    @Test
    void anExpiredSession_isNotFound() throws InterruptedException {
        SessionMeshHttpSession s = repository.createSession();
        s.setMaxInactiveInterval(Duration.ofSeconds(1));
        s.setAttribute("a", "b");
        repository.save(s);
        assertNotNull(repository.findById(s.getId()));
        // a read restarts the master's idle clock (a cached one through the sidecar's forwarded touch): look once,
        // after the timeout and a margin
        Thread.sleep(EXPIRY_PAUSE.toMillis());
        assertNull(repository.findById(s.getId()));
    }

    @Test
    void delete_isIdempotent_andPublishesOnce_withEveryAttributeForTheListener() {
        SessionMeshHttpSession s = saved("a", "b");
        s.setAttribute("cart.items", List.of("book"));
        repository.save(s);
        List<Object> seenByListener = new ArrayList<>();
        repository.setApplicationEventPublisher(e -> {
            events.add((AbstractSessionEvent) e);
            if (e instanceof SessionDeletedEvent d) { // as HttpSessionListener.sessionDestroyed reads attributes
                seenByListener.add(d.getSession().getAttribute("cart.items"));
                seenByListener.add(d.getSession().getAttributeNames());
            }
        });
        repository.deleteById(s.getId());
        assertNull(repository.findById(s.getId()));
        repository.deleteById(s.getId());
        repository.deleteById("NoSuchSessionAnywhere0123");
        repository.deleteById("bad id");
        assertEquals(1, events.stream().filter(e -> e instanceof SessionDeletedEvent).count(), events.toString());
        assertEquals(s.getId(), events.stream().filter(e -> e instanceof SessionDeletedEvent).findFirst().orElseThrow().getSessionId());
        assertEquals(List.of(List.of("book"), Set.of("a", "cart.items")), seenByListener);
    }

    @Test
    void noSaveResurrectsADeletedSession() {
        SessionMeshHttpSession s = saved("a", "b");
        SessionMeshHttpSession copy = repository.findById(s.getId());
        repository.deleteById(s.getId());
        copy.setAttribute("a", "c");
        assertThrows(IllegalStateException.class, () -> repository.save(copy));
        assertNull(repository.findById(s.getId()));
    }

    @Test
    void changeSessionId_afterTheFirstSave_movesEverything() throws Exception {
        SessionMeshHttpSession s = saved("a", "b");
        s.setMaxInactiveInterval(Duration.ofSeconds(123));
        repository.save(s);
        String original = s.getId();
        SessionMeshHttpSession found = repository.findById(original);
        String renamed = found.changeSessionId();
        assertNotEquals(original, renamed);
        found.setAttribute("a", "c");
        repository.save(found);
        assertNull(repository.findById(original));
        SessionMeshHttpSession loaded = repository.findById(renamed);
        assertEquals("c", loaded.getAttribute("a"));
        assertEquals(Set.of("a"), loaded.getAttributeNames());
        assertEquals(s.getCreationTime().toEpochMilli(), loaded.getCreationTime().toEpochMilli());
        assertEquals(123, masterIdleTimeoutSeconds(renamed));
    }

    @Test
    void changeSessionId_twiceBeforeSaving_keepsOnlyTheLast() {
        SessionMeshHttpSession s = saved("a", "b");
        String original = s.getId();
        String first = s.changeSessionId();
        String second = s.changeSessionId();
        repository.save(s);
        assertNull(repository.findById(original));
        assertNull(repository.findById(first));
        assertEquals("b", repository.findById(second).getAttribute("a"));
    }

    @Test
    void changeSessionId_onANewSession_savesUnderTheNewId() {
        SessionMeshHttpSession s = repository.createSession();
        String original = s.getId();
        s.setAttribute("a", "b");
        String renamed = s.changeSessionId();
        repository.save(s);
        assertNull(repository.findById(original));
        assertEquals("b", repository.findById(renamed).getAttribute("a"));
    }

    @Test
    void changeSessionId_savedTwice_isOneRename() {
        SessionMeshHttpSession s = saved("a", "b");
        String original = s.getId();
        String renamed = s.changeSessionId();
        repository.save(s);
        repository.save(s);
        assertNull(repository.findById(original));
        assertNotNull(repository.findById(renamed));
    }

    @Test
    void changeSessionId_ofADeletedSession_failsAndCreatesNothing() {
        SessionMeshHttpSession s = saved("a", "b");
        String original = s.getId();
        repository.deleteById(original);
        String renamed = s.changeSessionId();
        assertThrows(IllegalStateException.class, () -> repository.save(s));
        assertNull(repository.findById(renamed));
        assertNull(repository.findById(original));
    }

    @Test
    void changeSessionId_fromTwoStaleCopies_theFirstWins() {
        String original = saved("a", "b").getId();
        SessionMeshHttpSession copy1 = repository.findById(original);
        SessionMeshHttpSession copy2 = repository.findById(original);
        String id1 = copy1.changeSessionId();
        repository.save(copy1);
        String id2 = copy2.changeSessionId();
        assertThrows(IllegalStateException.class, () -> repository.save(copy2));
        assertNotNull(repository.findById(id1));
        assertNull(repository.findById(id2));
        assertNull(repository.findById(original));
    }

    @Test
    void concurrentUpdatesOfDifferentAttributes_fromTwoCopies_bothSurvive() {
        String id = saved("attribute1", "value1").getId();
        SessionMeshHttpSession copy1 = repository.findById(id);
        SessionMeshHttpSession copy2 = repository.findById(id);
        copy1.setAttribute("attribute2", "value2");
        repository.save(copy1);
        copy2.setAttribute("attribute3", "value3");
        copy2.setAttribute("cart.total", 42);
        repository.save(copy2);
        SessionMeshHttpSession found = repository.findById(id);
        assertEquals(Set.of("attribute1", "attribute2", "attribute3", "cart.total"), found.getAttributeNames());
        assertEquals("value1", found.getAttribute("attribute1"));
        assertEquals("value2", found.getAttribute("attribute2"));
        assertEquals("value3", found.getAttribute("attribute3"));
        assertEquals(42, (Integer) found.getAttribute("cart.total"));
    }

    @Test
    void aSaveWithNothingChanged_sendsNothing() {
        String id = saved("a", "b").getId();
        SessionMeshHttpSession found = repository.findById(id);
        found.getAttribute("a");
        found.setLastAccessedTime(java.time.Instant.now());
        long calls = client.calls();
        repository.save(found);
        assertEquals(calls, client.calls(), "a save with nothing changed called the sidecar");
        found.setAttribute("a", "c");
        repository.save(found);
        assertEquals(calls + 1, client.calls(), "a save of one change is one call");
    }

    /** Spring Session's save modes, told apart by what a stale copy's save writes back over a newer value. */
    @Test
    void saveModes_sendWhatSpringSessionSends() {
        for (SaveMode mode : SaveMode.values()) {
            repository.setSaveMode(mode);
            SessionMeshHttpSession s = repository.createSession();
            s.setAttribute("readHere", "old");
            s.setAttribute("notRead", "old");
            repository.save(s);
            SessionMeshHttpSession stale = repository.findById(s.getId());
            assertEquals("old", stale.getAttribute("readHere"));
            SessionMeshHttpSession other = repository.findById(s.getId());
            other.setAttribute("readHere", "new");
            other.setAttribute("notRead", "new");
            repository.save(other);
            stale.setAttribute("written", "x");
            repository.save(stale);
            SessionMeshHttpSession found = repository.findById(s.getId());
            assertEquals(mode == SaveMode.ON_SET_ATTRIBUTE ? "new" : "old", found.getAttribute("readHere"), mode.name());
            assertEquals(mode == SaveMode.ALWAYS ? "old" : "new", found.getAttribute("notRead"), mode.name());
            assertEquals("x", found.getAttribute("written"), mode.name());
            // Spring Session's filter saves twice a request: the second save sends only what changed since the first
            SessionMeshHttpSession newest = repository.findById(s.getId());
            newest.setAttribute("readHere", "newest");
            newest.setAttribute("notRead", "newest");
            repository.save(newest);
            repository.save(stale);
            SessionMeshHttpSession after = repository.findById(s.getId());
            assertEquals("newest", after.getAttribute("readHere"), mode.name() + ": the second save wrote a read again");
            assertEquals("newest", after.getAttribute("notRead"), mode.name() + ": the second save wrote everything again");
        }
    }

    @Test
    void flushModeImmediate_writesEveryChangeAtOnce() {
        repository.setFlushMode(FlushMode.IMMEDIATE);
        SessionMeshHttpSession s = repository.createSession();
        assertNotNull(repository.findById(s.getId()), "IMMEDIATE: a new session exists at once");
        s.setAttribute("a", "b");
        assertEquals("b", repository.findById(s.getId()).getAttribute("a"));
        s.removeAttribute("a");
        assertNull(repository.findById(s.getId()).getAttribute("a"));
        String original = s.getId();
        String renamed = s.changeSessionId();
        assertNull(repository.findById(original));
        assertNotNull(repository.findById(renamed));
        s.setMaxInactiveInterval(Duration.ofSeconds(55));
        assertEquals(Duration.ofSeconds(55), repository.findById(renamed).getMaxInactiveInterval());
    }

    /** The session's principal on the master, read by a client that never knew it (no cached principal). */
    static String principalOnTheMaster(String id) {
        try (SessionMeshClient fresh = SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:" + sidecar.port()))
                .admin(URI.create("http://127.0.0.1:" + sidecar.port("admin")))
                .classFilter(ClassFilter.allowingPackages("io.sessionmesh.httpsession")).build()) {
            return fresh.openSession(id).principal().orElse(null);
        }
    }

    @Test
    void thePrincipal_isTheSessionMeshPrincipal_andFollowsChanges() {
        SessionMeshHttpSession s = repository.createSession();
        s.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, "alice");
        repository.save(s);
        assertEquals("alice", principalOnTheMaster(s.getId()));

        SessionMeshHttpSession found = repository.findById(s.getId());
        found.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, "bob");
        String renamed = found.changeSessionId();
        repository.save(found);
        assertEquals("bob", principalOnTheMaster(renamed), "after a change and a new id");

        // another process clears it (this JVM still knows "bob"); the same user logs in again: the master is told
        try (SessionMeshClient other = SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:" + sidecar.port()))
                .admin(URI.create("http://127.0.0.1:" + sidecar.port("admin")))
                .classFilter(ClassFilter.allowingPackages("io.sessionmesh.httpsession")).build()) {
            other.openSession(renamed).clearPrincipal();
        }
        SessionMeshHttpSession relogin = repository.findById(renamed);
        relogin.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, "bob");
        repository.save(relogin);
        assertEquals("bob", principalOnTheMaster(renamed), "a principal this JVM knew was not told again");

        SessionMeshHttpSession again = repository.findById(renamed);
        again.removeAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME);
        repository.save(again);
        assertNull(principalOnTheMaster(renamed), "after the attribute was removed");
    }

    @Test
    void findByPrincipalName_followsSavesNewIdsPrincipalChangesDeletesAndExpiry() throws InterruptedException {
        String alice = "alice-" + System.nanoTime();
        String bob = "bob-" + System.nanoTime();
        SessionMeshHttpSession first = repository.createSession();
        first.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, alice);
        repository.save(first);
        SessionMeshHttpSession second = repository.createSession();
        second.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, alice);
        second.setAttribute("a", "b");
        second.setMaxInactiveInterval(Duration.ofSeconds(1));
        repository.save(second);
        assertEquals(Set.of(first.getId(), second.getId()), repository.findByPrincipalName(alice).keySet(), "after save");
        assertEquals("b", repository.findByPrincipalName(alice).get(second.getId()).getAttribute("a"));

        SessionMeshHttpSession found = repository.findById(first.getId());
        String renamed = found.changeSessionId();
        repository.save(found);
        assertTrue(repository.findByPrincipalName(alice).containsKey(renamed), "after changeSessionId");
        assertTrue(!repository.findByPrincipalName(alice).containsKey(first.getId()), "the old id is still listed");

        SessionMeshHttpSession moved = repository.findById(renamed);
        moved.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, bob);
        repository.save(moved);
        assertEquals(Set.of(renamed), repository.findByPrincipalName(bob).keySet(), "after the principal changed");
        assertTrue(!repository.findByPrincipalName(alice).containsKey(renamed), "still listed under the old principal");

        repository.deleteById(renamed);
        assertTrue(repository.findByPrincipalName(bob).isEmpty(), "after delete");

        // listing does not restart the idle clock, but reading does: look once, after the 1 s timeout has passed
        Thread.sleep(EXPIRY_PAUSE.toMillis());
        assertTrue(repository.findByPrincipalName(alice).isEmpty(), "after expiry");
        assertTrue(repository.findByIndexNameAndIndexValue("not-an-index", alice).isEmpty());
    }

    @Test
    void createdEvent_afterTheFirstSaveOnly() {
        SessionMeshHttpSession s = repository.createSession();
        assertTrue(events.isEmpty());
        repository.save(s);
        s.setAttribute("a", "b");
        repository.save(s);
        assertEquals(1, events.size(), events.toString());
        assertInstanceOf(SessionCreatedEvent.class, events.get(0));
        assertEquals(s.getId(), events.get(0).getSessionId());
    }

    @Test
    void aCustomSessionIdGenerator_namesTheSessions() {
        AtomicInteger n = new AtomicInteger();
        String prefix = "custom-" + System.nanoTime() + "-";
        repository.setSessionIdGenerator(() -> prefix + n.incrementAndGet());
        SessionMeshHttpSession s = saved("a", "b");
        assertEquals(prefix + "1", s.getId());
        assertEquals("b", repository.findById(prefix + "1").getAttribute("a"));
        assertEquals(prefix + "2", s.changeSessionId());
        repository.setSessionIdGenerator(() -> "short");
        assertThrows(IllegalStateException.class, () -> repository.createSession());
    }

    @Test
    void theSameIdTwice_getsAFreshIdInsteadOfTheOtherSession() {
        String id = saved("owner", "first").getId();
        AtomicInteger n = new AtomicInteger();
        String prefix = "retry-" + System.nanoTime() + "-";
        repository.setSessionIdGenerator(() -> n.getAndIncrement() == 0 ? id : prefix + n.get());
        SessionMeshHttpSession s = repository.createSession();
        s.setAttribute("owner", "second");
        repository.save(s);
        assertNotEquals(id, s.getId());
        assertEquals("first", repository.findById(id).getAttribute("owner"));
        assertEquals("second", repository.findById(s.getId()).getAttribute("owner"));
    }

    /** A value of this package: what {@code sessionmesh.allowed-packages=io.sessionmesh.httpsession} allows. */
    record Basket(String owner, List<String> items) implements java.io.Serializable {
    }

    /** The drop-in as an application gets it: auto-configured from properties, against this master and sidecar. */
    static WebApplicationContextRunner dropIn(String allowedPackages) {
        return new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SessionMeshAutoConfiguration.class,
                        SessionMeshHttpSessionAutoConfiguration.class))
                .withPropertyValues("sessionmesh.sidecar-uri=http://127.0.0.1:" + sidecar.port(),
                        "sessionmesh.admin-uri=http://127.0.0.1:" + sidecar.port("admin"),
                        "sessionmesh.allowed-packages=" + allowedPackages, "sessionmesh.http-session.sections=cart");
    }

    @Test
    void autoConfigured_withItsPackageWrittenWithoutADot_readsItsOwnAttributesBack() {
        Basket basket = new Basket("alice", List.of("book", "pen"));
        String[] id = new String[1];
        dropIn("io.sessionmesh.httpsession").run(ctx -> {
            SessionMeshSessionRepository r = ctx.getBean(SessionMeshSessionRepository.class);
            SessionMeshHttpSession s = r.createSession();
            s.setAttribute("cart.basket", basket);
            s.setAttribute("last", new Basket("alice", List.of()));
            r.save(s);
            id[0] = s.getId();
        });
        // another instance of the application (a fresh client: nothing cached) reads them back
        dropIn("io.sessionmesh.httpsession").run(ctx -> {
            SessionMeshHttpSession found = ctx.getBean(SessionMeshSessionRepository.class).findById(id[0]);
            assertNotNull(found);
            assertEquals(basket, found.getAttribute("cart.basket"));
            assertEquals(new Basket("alice", List.of()), found.getAttribute("last"));
        });
        // what the filter decides: an application allowing another package reads them as null (and a WARN)
        dropIn("com.example.bank").run(ctx -> {
            SessionMeshHttpSession found = ctx.getBean(SessionMeshSessionRepository.class).findById(id[0]);
            assertNull(found.getAttribute("cart.basket"));
        });
    }
}
