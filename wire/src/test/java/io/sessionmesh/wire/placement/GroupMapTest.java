package io.sessionmesh.wire.placement;

import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GroupMapTest {
    static final List<String> A = List.of("10.0.0.1:7400", "10.0.0.2:7400", "10.0.0.3:7400");
    static final List<String> B = List.of("10.0.0.4:7400", "10.0.0.5:7400", "10.0.0.6:7400");
    static final List<String> C = List.of("10.0.0.7:7400");

    @Test
    void encodesAndDecodesStableAndMovingMaps() {
        GroupMap first = GroupMap.first(List.of(A, C), 256);
        GroupMap moving = first.adding(B);
        GroupMap settled = moving.settled();
        for (GroupMap m : List.of(first, moving, settled)) {
            GroupMap back = GroupMap.decode(m.encode());
            assertEquals(m, back);
            assertEquals(m.epoch(), back.epoch());
            assertEquals(m.moving(), back.moving());
            assertEquals(m.previous(), back.previous());
        }
        assertEquals(List.of(1L, 2L, 3L), List.of(first.epoch(), moving.epoch(), settled.epoch()));
        assertTrue(moving.moving());
        assertEquals(List.of(A, C), moving.previous());
        assertEquals(List.of("10.0.0.1:7400", "10.0.0.7:7400", "10.0.0.4:7400"), settled.names());
    }

    @Test
    void addingAGroupMovesKeysOnlyToIt_andRemovingMovesOnlyItsKeys() {
        GroupMap moving = GroupMap.first(List.of(A, C), 1024).adding(B);
        int moved = 0;
        int keys = 20_000;
        for (int i = 0; i < keys; i++) {
            String id = UUID.randomUUID().toString();
            String before = moving.previousOwner(id);
            String now = moving.owner(id);
            if (!before.equals(now)) {
                assertEquals(B.get(0), now, "a key that moves goes to the group added");
                moved++;
            }
        }
        // about a third of the keys, within the ring's spread
        assertTrue(moved > keys / 4 && moved < keys * 5 / 12, "moved " + moved + " of " + keys);

        GroupMap removing = moving.settled().removing(C.get(0));
        for (int i = 0; i < 5_000; i++) {
            String id = UUID.randomUUID().toString();
            if (!removing.previousOwner(id).equals(C.get(0))) {
                assertEquals(removing.previousOwner(id), removing.owner(id), "only the removed group's keys move");
            } else {
                assertNotEquals(C.get(0), removing.owner(id));
            }
        }
        assertEquals(List.of(A, B, C), removing.allGroups());
    }

    @Test
    void ownerIsTheSameRingAsAPlacementOfTheSameGroups() {
        GroupMap map = GroupMap.first(List.of(A, B, C), 512);
        HashRing<Integer> ring = map.placement(1).ring();
        for (int i = 0; i < 2_000; i++) {
            String id = UUID.randomUUID().toString();
            assertEquals(map.owner(id), map.names().get(ring.indexFor(id)), "sidecars' CREATE placement and the map agree");
        }
    }

    @Test
    void refusesChangesThatMakeNoSense() {
        GroupMap first = GroupMap.first(List.of(A), 256);
        assertThrows(IllegalStateException.class, () -> first.adding(A), "a group twice");
        assertThrows(IllegalArgumentException.class, () -> first.removing("10.0.0.9:7400"), "no such group");
        assertThrows(IllegalArgumentException.class, () -> first.removing(A.get(0)), "the last group");
        assertThrows(IllegalStateException.class, () -> first.adding(B).adding(C), "one change at a time");
        assertThrows(IllegalStateException.class, first::settled, "nothing moving");
        assertThrows(IllegalArgumentException.class, () -> GroupMap.first(List.of(List.of("no-port")), 256));
        assertThrows(IllegalArgumentException.class, () -> GroupMap.first(List.of(A, List.of(A.get(0))), 256),
                "two groups of one name");
    }

    @Test
    void malformedBytesAreRefusedWithAMessage() {
        byte[] good = GroupMap.first(List.of(A, B), 256).adding(C).encode();
        for (int n = 0; n < good.length; n++) {
            byte[] cut = Arrays.copyOf(good, n);
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> GroupMap.decode(cut));
            assertTrue(e.status() == Status.BAD_REQUEST || e.status() == Status.UNSUPPORTED_VERSION, e.getMessage());
        }
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        assertTrue(assertThrows(MalformedMessageException.class, () -> GroupMap.decode(longer)).getMessage()
                .contains("after the group map"));
        byte[] format = good.clone();
        format[0] = 9;
        assertEquals(Status.UNSUPPORTED_VERSION, assertThrows(MalformedMessageException.class,
                () -> GroupMap.decode(format)).status());
        byte[] state = good.clone();
        state[9] = 7;
        assertTrue(assertThrows(MalformedMessageException.class, () -> GroupMap.decode(state)).getMessage().contains("state"));
        byte[] noGroups = GroupMap.first(List.of(A), 256).encode();
        noGroups[12] = 0;
        noGroups[13] = 0;
        assertTrue(assertThrows(MalformedMessageException.class, () -> GroupMap.decode(noGroups)).getMessage()
                .contains("groups"));
        assertFalse(GroupMap.decode(good).groups().isEmpty());
    }

    @Test
    void parsesAndFormatsTheCommandLineForm() {
        List<List<String>> groups = GroupMap.parseGroups("10.0.0.1:7400|10.0.0.2:7400, 10.0.0.7:7400");
        assertEquals(List.of(List.of("10.0.0.1:7400", "10.0.0.2:7400"), List.of("10.0.0.7:7400")), groups);
        assertEquals("10.0.0.1:7400|10.0.0.2:7400,10.0.0.7:7400", GroupMap.format(groups));
    }
}
