package io.sessionmesh.client;

import io.sessionmesh.wire.placement.HashRing;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SessionMeshClient#sessionsOf(String)} in both transport forms against two real masters on a hash ring and a
 * sidecar (processes): what Spring Session's findByPrincipalName needs, right after a save, a principal change, a
 * changeSessionId (rename) and a delete.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClientPrincipalSessionsIT {
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

    static Set<String> ids(SessionMeshClient client, String principal) {
        PrincipalSessions found = client.sessionsOf(principal);
        assertTrue(found.complete(), "both masters answered in full");
        Set<String> ids = new HashSet<>(found.ids());
        assertEquals(found.ids().size(), ids.size(), "no id twice");
        return ids;
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void sessionsOf_listsTheSessionsOnBothMasters_rightAfterEachIsCreated(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            String alice = "alice-" + UUID.randomUUID();
            Set<String> created = new HashSet<>();
            Set<Integer> onMasters = new HashSet<>();
            while (onMasters.size() < 2 || created.size() < 4) {
                String id = client.createSession(UUID.randomUUID().toString(), null, alice).id();
                created.add(id);
                onMasters.add(ring.indexFor(id));
                assertEquals(created, ids(client, alice), "right after the create");
            }
            client.createSession("bob-" + UUID.randomUUID());
            assertEquals(created, ids(client, alice));
            assertEquals(Set.of(), ids(client, "nobody-" + UUID.randomUUID()));
        }
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void sessionsOf_followsAPrincipalChangeARenameAndADelete(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            String anonymous = "anon-" + UUID.randomUUID();
            String alice = "alice-" + UUID.randomUUID();
            String id = UUID.randomUUID().toString();
            Session s = client.createSession(id, Duration.ofMinutes(10), anonymous);
            assertEquals(Set.of(id), ids(client, anonymous));

            s.setPrincipal(alice); // the login
            assertEquals(Set.of(), ids(client, anonymous), "not under the old principal");
            assertEquals(Set.of(id), ids(client, alice), "under the new one");

            String renamed;
            do {
                renamed = UUID.randomUUID().toString();
            } while (ring.indexFor(renamed) != ring.indexFor(id)); // changeSessionId stays on the session's master
            client.renameSession(id, renamed, null);
            assertEquals(Set.of(renamed), ids(client, alice), "the new id keeps the principal; the old id is gone");

            client.openSession(renamed).invalidate();
            assertEquals(Set.of(), ids(client, alice), "after the delete");
        }
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void sessionsOf_principalWithReservedCharacters_travelsAsIs(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            String principal = "zoë+tag@example.com/x 100% " + UUID.randomUUID();
            String id = client.createSession(principal).id();
            assertEquals(Set.of(id), ids(client, principal));
            assertEquals(Set.of(), ids(client, principal.replace('+', ' ')), "a plus is not a space");
        }
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void sessionsOf_badPrincipal_failsBeforeAnythingIsSent(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            long calls = client.calls();
            BadRequestException control = assertThrows(BadRequestException.class, () -> client.sessionsOf("secret\u0001user"));
            assertFalse(control.getMessage().contains("secret"), control.getMessage());
            assertThrows(BadRequestException.class, () -> client.sessionsOf(""));
            assertThrows(PayloadTooLargeException.class, () -> client.sessionsOf("x".repeat(257)));
            assertEquals(calls, client.calls());
        }
    }
}
