package io.sessionmesh.master.store;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sessions of each principal, so that "log out everywhere" and a principal's session list look at that
 * principal's sessions instead of scanning the store. A session is in its principal's entry from when it has that
 * principal in the store until it leaves the store or its principal changes ({@link SessionStore} calls
 * {@link #add} and {@link #remove} under the session's monitor); an entry with no session left is dropped, so the
 * index holds one entry per principal of a session in the store, never more.
 *
 * <p>An entry is as small as its sessions allow, since most principals have one or a few: the {@link Session}
 * itself, then a copy-on-write array of up to {@link #MAX_ARRAY_SESSIONS}, then a concurrent set (back to an array
 * once it falls to half that, so a principal on the edge does not flip at every change). An entry changes only
 * inside {@code compute} on its principal; {@link #sessionsOf} is a weakly consistent view, and its callers check each
 * session (removed, expired, its principal now) as a scan of the store did. {@link MemoryBudget#PRINCIPAL_OVERHEAD}
 * counts an entry's heap.
 */
final class PrincipalIndex {
    /** The most sessions a principal's entry keeps in an array; past it, a concurrent set. */
    static final int MAX_ARRAY_SESSIONS = 16;

    private final ConcurrentHashMap<String, Object> byPrincipal = new ConcurrentHashMap<>();

    /** Puts {@code session} in its principal's entry (nothing for a session without one). */
    void add(Session session) {
        String principal = session.principal;
        if (principal == null) {
            return;
        }
        byPrincipal.compute(principal, (p, entry) -> {
            if (entry == null) {
                return session;
            }
            if (entry instanceof Session one) {
                return one == session ? one : new Session[] {one, session};
            }
            if (entry instanceof Session[] array) {
                if (indexOf(array, session) >= 0) {
                    return array;
                }
                if (array.length < MAX_ARRAY_SESSIONS) {
                    Session[] grown = Arrays.copyOf(array, array.length + 1);
                    grown[array.length] = session;
                    return grown;
                }
                Set<Session> set = ConcurrentHashMap.newKeySet(2 * MAX_ARRAY_SESSIONS);
                Collections.addAll(set, array);
                set.add(session);
                return set;
            }
            set(entry).add(session);
            return entry;
        });
    }

    /** Takes {@code session} out of the entry of the principal it has now (before that principal changes). */
    void remove(Session session) {
        String principal = session.principal;
        if (principal == null) {
            return;
        }
        byPrincipal.computeIfPresent(principal, (p, entry) -> {
            if (entry instanceof Session one) {
                return one == session ? null : one;
            }
            if (entry instanceof Session[] array) {
                int i = indexOf(array, session);
                if (i < 0) {
                    return array;
                }
                if (array.length == 2) {
                    return array[1 - i];
                }
                Session[] shrunk = new Session[array.length - 1];
                System.arraycopy(array, 0, shrunk, 0, i);
                System.arraycopy(array, i + 1, shrunk, i, shrunk.length - i);
                return shrunk;
            }
            Set<Session> set = set(entry);
            set.remove(session);
            return set.size() > MAX_ARRAY_SESSIONS / 2 ? set : set.toArray(new Session[0]);
        });
    }

    /** The sessions of {@code principal}: a weakly consistent view (see the class's javadoc). */
    Iterable<Session> sessionsOf(String principal) {
        Object entry = byPrincipal.get(principal);
        if (entry == null) {
            return List.of();
        }
        if (entry instanceof Session one) {
            return List.of(one);
        }
        if (entry instanceof Session[] array) {
            return Arrays.asList(array);
        }
        return set(entry);
    }

    /** How many principals have an entry. */
    int principals() {
        return byPrincipal.size();
    }

    private static int indexOf(Session[] array, Session session) {
        for (int i = 0; i < array.length; i++) {
            if (array[i] == session) {
                return i;
            }
        }
        return -1;
    }

    @SuppressWarnings("unchecked")
    private static Set<Session> set(Object entry) {
        return (Set<Session>) entry;
    }
}
