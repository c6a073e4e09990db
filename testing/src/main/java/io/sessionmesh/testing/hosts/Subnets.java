package io.sessionmesh.testing.hosts;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Picks the private /24 of a run: one of {@value #BASE}.N.0/24 that no address or route of the root namespace
 * overlaps (read from {@code ip -4 addr} and {@code ip -4 route show table all}), starting at a random N so that
 * runs side by side rarely try the same one; {@link TestHosts} picks and claims it under a lock.
 */
final class Subnets {
    /** The /16 the runs' subnets come from. */
    static final String BASE = "10.77";
    /** First and last third octet tried: .0 and .255 are left alone. */
    static final int FIRST = 1;
    static final int LAST = 254;
    private static final Pattern CIDR = Pattern.compile("(?<![\\d.])(\\d{1,3}(?:\\.\\d{1,3}){3})(?:/(\\d{1,2}))?(?![\\d.])");

    private Subnets() {
    }

    /** The third octet of a free {@value #BASE}.N.0/24. */
    static int pickFree() {
        List<long[]> used = used();
        int span = LAST - FIRST + 1;
        int start = ThreadLocalRandom.current().nextInt(span);
        for (int i = 0; i < span; i++) {
            int n = FIRST + (start + i) % span;
            long net = toLong(BASE + "." + n + ".0");
            if (used.stream().noneMatch(u -> overlaps(u[0], (int) u[1], net, 24))) {
                return n;
            }
        }
        throw new IllegalStateException("no /24 in " + BASE + ".0.0/16 is free of this machine's addresses and routes: "
                + used.size() + " networks in use (ip -4 route show table all)");
    }

    /** Every IPv4 network the root namespace has an address or a route in ({@code default} is no network here). */
    private static List<long[]> used() {
        List<long[]> nets = new ArrayList<>();
        String text = Commands.run("ip", "-4", "-o", "addr", "show").stdout() + "\n"
                + Commands.run("ip", "-4", "route", "show", "table", "all").stdout();
        Matcher m = CIDR.matcher(text);
        while (m.find()) {
            int len = m.group(2) == null ? 32 : Integer.parseInt(m.group(2));
            try {
                nets.add(new long[] {toLong(m.group(1)), len});
            } catch (IllegalArgumentException e) {
                // not an address (a version string, say)
            }
        }
        return nets;
    }

    private static boolean overlaps(long a, int aLen, long b, int bLen) {
        int len = Math.min(aLen, bLen);
        long mask = len == 0 ? 0 : (0xFFFFFFFFL << (32 - len)) & 0xFFFFFFFFL;
        return (a & mask) == (b & mask);
    }

    private static long toLong(String dotted) {
        String[] p = dotted.split("\\.");
        long v = 0;
        for (String octet : p) {
            int o = Integer.parseInt(octet);
            if (o > 255) {
                throw new IllegalArgumentException(dotted);
            }
            v = v << 8 | o;
        }
        return v;
    }

    /** {@value #BASE}.n.host as an address. */
    static InetAddress address(int n, int host) {
        try {
            return InetAddress.getByAddress(new byte[] {10, 77, (byte) n, (byte) host});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes are always an address
        }
    }
}
