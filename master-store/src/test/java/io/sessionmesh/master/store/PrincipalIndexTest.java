package io.sessionmesh.master.store;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The index by principal through every shape of an entry: one session, an array, a set, and back. */
class PrincipalIndexTest {
    private final PrincipalIndex index = new PrincipalIndex();

    private static Session session(int i, String principal) {
        Session s = new Session("session-" + i, 0, 60_000, 3_600_000);
        s.principal = principal;
        return s;
    }

    private Set<Session> of(String principal) {
        Set<Session> out = new HashSet<>();
        index.sessionsOf(principal).forEach(out::add);
        return out;
    }

    @Test
    void growsThroughArrayAndSet_andShrinksBack_listingExactlyWhatIsIn() {
        List<Session> alices = new ArrayList<>();
        for (int i = 0; i < 3 * PrincipalIndex.MAX_ARRAY_SESSIONS; i++) {
            Session s = session(i, "alice");
            alices.add(s);
            index.add(s);
            index.add(s); // twice: still once
            assertEquals(new HashSet<>(alices), of("alice"), "after adding " + (i + 1));
        }
        Session bobs = session(1_000, "bob");
        index.add(bobs);
        index.add(session(1_001, null)); // no principal: not indexed
        while (!alices.isEmpty()) {
            Session s = alices.remove(alices.size() - 1);
            index.remove(s);
            index.remove(s); // twice: nothing more
            assertEquals(new HashSet<>(alices), of("alice"), "after removing down to " + alices.size());
            assertEquals(Set.of(bobs), of("bob"), "another principal's entry untouched");
        }
        assertEquals(Set.of(bobs), of("bob"));
        assertEquals(1, index.principals(), "alice's entry went with her last session");
        index.remove(bobs);
        assertEquals(0, index.principals());
        assertEquals(Set.of(), of("nobody"));
    }
}
