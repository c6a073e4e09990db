package io.sessionmesh.master.placement;

import io.sessionmesh.wire.placement.HashRing;
import io.sessionmesh.wire.placement.Placement;

import io.sessionmesh.master.store.SessionIds;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HashRingSpreadTest {
    static final long PINNED_HASH = 4269733473688929203L;
    static List<String> masters(int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("10.0." + (i / 250) + "." + (i % 250 + 1) + ":7400");
        }
        return names;
    }

    static HashRing<String> ring(List<String> names, int vnodes) {
        return new HashRing<>(names, names, vnodes);
    }

    /**
     * The spread the issue asks about: (most loaded - least loaded) / mean, for 2..32 masters at 256 virtual nodes,
     * as the ring's exact shares and as counted over 1,000,000 real session ids. Prints the table for RESULTS.md.
     */
    @Test
    void spread_2to32Masters_measuredAndBounded() {
        SessionIds ids = new SessionIds();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 1_000_000; i++) {
            keys.add(ids.next());
        }
        System.out.println("| masters | spread of ring shares | spread of 1,000,000 session ids |");
        System.out.println("|---:|---:|---:|");
        for (int vnodes : new int[] {256, 4096, 65536}) {
          System.out.println("vnodes " + vnodes);
          for (int n : new int[] {2, 3, 4, 8, 16, 32}) {
            HashRing<String> ring = ring(masters(n), vnodes);
            double[] shares = ring.shares();
            double sum = 0;
            for (double s : shares) {
                sum += s;
            }
            assertEquals(1.0, sum, 1e-9, "shares must cover the ring");
            int[] counts = new int[n];
            for (String k : keys) {
                counts[ring.indexFor(k)]++;
            }
            double shareSpread = (max(shares) - min(shares)) * n;
            double countSpread = (double) (max(counts) - min(counts)) / (keys.size() / (double) n);
            System.out.printf(Locale.ROOT, "| %d | %.1f%% | %.1f%% |%n", n, shareSpread * 100, countSpread * 100);
            // The ring's shares vary by about 1/sqrt(256) = 6% each: bound the spread well above what 256 vnodes give.
            assertTrue(shareSpread < 0.45, n + " masters: spread " + shareSpread);
            // Counting real ids lands where the shares say (the ids are uniform on the ring).
            for (int i = 0; i < n; i++) {
                assertEquals(shares[i], counts[i] / (double) keys.size(), 0.01, "master " + i);
            }
          }
        }
    }

    @Test
    void addingAMaster_movesOnlyKeysToIt_aboutOneInNPlusOne() {
        List<String> four = masters(4);
        List<String> five = masters(5);
        HashRing<String> before = ring(four, 256);
        HashRing<String> after = ring(five, 256);
        SessionIds ids = new SessionIds();
        int moved = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            String k = ids.next();
            String a = before.nodeFor(k);
            String b = after.nodeFor(k);
            if (!a.equals(b)) {
                moved++;
                assertEquals(five.get(4), b, "a key moved between two old masters");
            }
        }
        double share = moved / (double) n;
        assertTrue(share > 0.12 && share < 0.28, "moved " + share);
    }

    @Test
    void sameNames_sameRing_inEveryProcess() {
        HashRing<String> a = ring(masters(7), 256);
        HashRing<String> b = ring(masters(7), 256);
        SessionIds ids = new SessionIds();
        for (int i = 0; i < 10_000; i++) {
            String k = ids.next();
            assertEquals(a.nodeFor(k), b.nodeFor(k));
        }
        // Pinned: the hash is part of the protocol (sidecars and masters must agree on it).
        assertEquals(PINNED_HASH, HashRing.hash("Qm9vdHN0cmFwU2Vzc2lvbg"));
    }

    @Test
    void placement_makesIdsThatLandOnTheAskedMaster() {
        Placement p = new Placement(masters(5), 256, 3);
        HashRing<Integer> ring = Placements.ring(p).join();
        SessionIds ids = new SessionIds();
        int tries = 0;
        int found = 0;
        while (found < 100) {
            tries++;
            if (ring.indexFor(ids.next()) == 3) {
                found++;
            }
        }
        assertTrue(tries < 1000, "tries " + tries);
    }

    private static double max(double[] a) {
        double m = a[0];
        for (double v : a) {
            m = Math.max(m, v);
        }
        return m;
    }

    private static double min(double[] a) {
        double m = a[0];
        for (double v : a) {
            m = Math.min(m, v);
        }
        return m;
    }

    private static int max(int[] a) {
        int m = a[0];
        for (int v : a) {
            m = Math.max(m, v);
        }
        return m;
    }

    private static int min(int[] a) {
        int m = a[0];
        for (int v : a) {
            m = Math.min(m, v);
        }
        return m;
    }
}
