package io.sessionmesh.benchmarks.driver.load;

import io.sessionmesh.workload.Zipf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The active sessions of a run on a stack of {@code hosts} hosts, and the traffic that makes and uses them: slot i
 * holds the session of Zipf rank i (s = 0.99); {@link #fill} logs one into every slot; {@link #logins} logs new ones
 * in, each replacing the next slot in turn (so they land on random ranks); {@link #mix} sends the {@link Page} mix,
 * each request to the host its session is routed to: by hash of the id (sticky) or at random. A login goes to a host
 * at random, as a balancer sends a request that has no session yet. With {@code relogin}, a request that finds its
 * session gone (404: it idled out) is not an error: it is counted, and the slot's user logs in again. Called on the
 * load's event loop only ({@link Request.Traffic}).
 */
public final class SessionSet {
    private static final Pattern SESSION_ID = Pattern.compile("\"sessionId\"\\s*:\\s*\"([^\"]+)\"");
    /** The first client id's number: C1000000, C1000001, ... */
    static final int FIRST_CLIENT = 1_000_000;

    private final AtomicReferenceArray<String> slots;
    private final Zipf zipf;
    private final int hosts;
    private final boolean sticky;
    private final boolean depositsOnly;
    private final boolean relogin;
    private final ArrayDeque<Integer> gone = new ArrayDeque<>();
    private final LongAdder expired = new LongAdder();
    private int nextClient;
    private int nextFill;
    private int nextSlot;

    /**
     * @param depositsOnly the deposit pages alone (the Spring Session apps have no others)
     * @param relogin      a session found gone is logged in again, not counted as an error
     */
    public SessionSet(int sessions, int hosts, boolean sticky, boolean depositsOnly, boolean relogin) {
        this.slots = new AtomicReferenceArray<>(sessions);
        this.zipf = Zipf.workload(sessions);
        this.hosts = hosts;
        this.sticky = sticky;
        this.depositsOnly = depositsOnly;
        this.relogin = relogin;
    }

    /** Logins into every slot in turn, then none (the closed-loop users that send them stop). */
    public Request.Traffic fill() {
        return random -> nextFill < slots.length() ? login(random, nextFill++) : null;
    }

    /** Whether every slot holds a session. */
    public boolean full() {
        for (int i = 0; i < slots.length(); i++) {
            if (slots.get(i) == null) {
                return false;
            }
        }
        return true;
    }

    /** Logins of new sessions, each replacing the next slot in turn. */
    public Request.Traffic logins() {
        return random -> login(random, -1);
    }

    /** The page mix on the sessions (a session gone logged in again first, with {@code relogin}). */
    public Request.Traffic mix() {
        return random -> {
            Integer again = gone.poll();
            if (again != null) {
                return login(random, again);
            }
            Page p = Page.pick(random.nextInt(100), depositsOnly);
            int slot = zipf.next(random);
            String session = slots.get(slot);
            byte[] body = p.body == null ? null
                    : String.format(p.body, 1000 + random.nextInt(1_000_000)).getBytes(StandardCharsets.US_ASCII);
            return new Request(p.kind(), p.method, p.path, host(session, random), session, body, (status, content) -> {
                if (status == 404 && relogin) {
                    expired.increment();
                    if (session == null || session.equals(slots.get(slot))) { // else logged in again already
                        gone.add(slot);
                    }
                    return true;
                }
                return status / 100 == 2;
            });
        };
    }

    /** Sessions found gone (each logged in again). */
    public long expired() {
        return expired.sum();
    }

    /** The sessions in the slots now (null where none is yet). */
    public List<String> ids() {
        String[] ids = new String[slots.length()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = slots.get(i);
        }
        return List.of(ids);
    }

    /** The host a session's request goes to. */
    int host(String session, SplittableRandom random) {
        if (hosts == 1) {
            return 0;
        }
        return sticky && session != null ? Math.floorMod(session.hashCode(), hosts) : random.nextInt(hosts);
    }

    /** A login whose session goes into {@code slot}, or into the next slot in turn when it is -1. */
    private Request login(SplittableRandom random, int slot) {
        String path = Page.LOGIN.path + "C" + (FIRST_CLIENT + nextClient++);
        int host = hosts == 1 ? 0 : random.nextInt(hosts);
        return new Request(Page.LOGIN.kind(), Page.LOGIN.method, path, host, null, null, (status, content) -> {
            if (status / 100 != 2) {
                return false;
            }
            Matcher m = SESSION_ID.matcher(content.toString(StandardCharsets.UTF_8));
            if (!m.find()) {
                return false;
            }
            slots.set(slot >= 0 ? slot : Math.floorMod(nextSlot++, slots.length()), m.group(1));
            return true;
        });
    }
}
