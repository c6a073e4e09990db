package io.sessionmesh.client;

import io.sessionmesh.wire.placement.HashRing;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Sessions with the application's own id, and renames, through the client in both transport forms, against two real
 * masters on a hash ring and a sidecar (processes): what a Spring Session repository needs (its ids, changeSessionId,
 * setMaxInactiveInterval).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClientRenameIT {
    static TwoMastersOnARing cluster;
    /** Which master an id belongs to, as the sidecar reckons. */
    static HashRing<Integer> ring;

    @BeforeAll
    static void start() throws Exception {
        cluster = new TwoMastersOnARing();
        ring = cluster.ring;
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    static SessionMeshClient client(TransportForm form) {
        return cluster.client(form);
    }

    /** A fresh UUID on {@code id}'s master ({@code same}) or on the other one. */
    static String idOn(String id, boolean same) {
        while (true) {
            String candidate = UUID.randomUUID().toString();
            if ((ring.indexFor(candidate) == ring.indexFor(id)) == same) {
                return candidate;
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void createSession_withId_hasThatId_isJustCreated_andATakenIdIsAConflict(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            String id = UUID.randomUUID().toString();
            Session s = client.createSession(id, Duration.ofMinutes(10), "alice");
            assertEquals(id, s.id());
            long calls = client.calls();
            assertEquals(0, s.section("cart").version(), "a new session's sections are known empty");
            assertEquals(Optional.of("alice"), s.principal());
            assertEquals(calls, client.calls(), "known from creation, no call");
            SessionConflictException taken = assertThrows(SessionConflictException.class,
                    () -> client.createSession(id, null, null));
            assertFalse(taken instanceof SessionIdOnAnotherMasterException, taken.getMessage());
            assertFalse(taken.getMessage().contains(id), taken.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void badIds_failBeforeAnythingIsSent(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            long calls = client.calls();
            BadRequestException shortId = assertThrows(BadRequestException.class, () -> client.createSession("abc", null, null));
            assertFalse(shortId.getMessage().contains("abc"), shortId.getMessage());
            assertThrows(BadRequestException.class, () -> client.createSession("0b7e1f4c.58d2.4a1e.9c3b", null, null));
            assertThrows(BadRequestException.class, () -> client.renameSession(UUID.randomUUID().toString(), "short", null));
            assertThrows(BadRequestException.class, () -> client.renameSession(UUID.randomUUID().toString(), null, null));
            assertEquals(calls, client.calls());
        }
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void renameSession_movesTheData_theOldIdIsGone_andASecondRenameOfItFindsNothing(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            Session s = client.createSession(UUID.randomUUID().toString(), Duration.ofMinutes(5), "alice");
            s.section("cart").setAttribute("sku", "A-42");
            s.save();
            String to = idOn(s.id(), true);

            assertEquals(Duration.ofMinutes(20), client.renameSession(s.id(), to, Duration.ofMinutes(20)));

            Session renamed = client.getSession(to, "cart");
            assertEquals("A-42", renamed.section("cart").getAttribute("sku"));
            assertEquals(1, renamed.section("cart").version());
            assertEquals(Optional.of("alice"), renamed.principal());
            assertThrows(SessionNotFoundException.class, () -> client.getSession(s.id(), "cart"));
            assertThrows(SessionNotFoundException.class, () -> client.renameSession(s.id(), idOn(s.id(), true), null));
        }
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void renameSession_ontoATakenIdOrAnIdOnAnotherMaster_isAConflictSayingWhich(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            Session s = client.createSession(UUID.randomUUID().toString(), null, null);
            String taken = client.createSession(idOn(s.id(), true), null, null).id();
            SessionConflictException onTaken = assertThrows(SessionConflictException.class,
                    () -> client.renameSession(s.id(), taken, null));
            assertFalse(onTaken instanceof SessionIdOnAnotherMasterException, onTaken.getMessage());

            String elsewhere = idOn(s.id(), false);
            assertNotEquals(ring.indexFor(s.id()), ring.indexFor(elsewhere));
            SessionConflictException onOther = assertThrows(SessionConflictException.class,
                    () -> client.renameSession(s.id(), elsewhere, null));
            assertInstanceOf(SessionIdOnAnotherMasterException.class, onOther, onOther.getMessage());

            String fresh = idOn(s.id(), true); // what a caller does on SessionIdOnAnotherMasterException
            assertEquals(Duration.ofMinutes(5), client.renameSession(s.id(), fresh, null), "the master's default timeout kept");
            assertEquals(fresh, client.getSession(fresh, "cart").id());
        }
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void renameSession_timeoutOnly_keepsTheId(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            Session s = client.createSession(UUID.randomUUID().toString(), Duration.ofMinutes(5), null);
            assertEquals(Duration.ofSeconds(90), client.renameSession(s.id(), null, Duration.ofSeconds(90)));
            assertEquals(Duration.ofSeconds(30), client.renameSession(s.id(), s.id(), Duration.ofSeconds(30)));
            assertEquals(s.id(), client.getSession(s.id(), "cart").id());
        }
    }
}
