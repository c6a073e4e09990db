package io.sessionmesh.integration.consistency;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the clients did, operation by operation: when each was invoked and completed (one {@link System#nanoTime}
 * clock: every client runs in this JVM) and what it returned. Sessions, sections and attributes are numbered;
 * the value a write stores is its own id, so a read tells which write each attribute it saw came from.
 */
final class History {
    /** An attribute the read did not find. */
    static final long ABSENT = -1;
    /** A write's version when it was not acknowledged: it may or may not have been applied. */
    static final long UNKNOWN = -1;

    /** A write of the attributes in {@code attributeMask} of one section, each set to {@code id}. */
    record Write(long id, int client, int sidecar, int session, int section, int attributeMask,
                 long invoked, long completed, long version) {
        boolean acknowledged() {
            return version != UNKNOWN;
        }

        boolean sets(int attribute) {
            return (attributeMask & (1 << attribute)) != 0;
        }
    }

    /**
     * A read that answered: for each section asked, its version and, per attribute, the id of the write whose value
     * it holds ({@code values[i * attributes + a]}, {@link #ABSENT} if none).
     */
    record Read(int client, int sidecar, int session, int[] sections, long[] versions, long[] values,
                long invoked, long completed) {
    }

    private final List<Write> writes = Collections.synchronizedList(new ArrayList<>());
    private final List<Read> reads = Collections.synchronizedList(new ArrayList<>());

    void add(Write w) {
        writes.add(w);
    }

    void add(Read r) {
        reads.add(r);
    }

    void addAllWrites(List<Write> ws) {
        writes.addAll(ws);
    }

    void addAllReads(List<Read> rs) {
        reads.addAll(rs);
    }

    /** Operations recorded so far: answered reads and all writes. */
    long size() {
        return (long) writes.size() + reads.size();
    }

    List<Write> writes() {
        synchronized (writes) {
            return List.copyOf(writes);
        }
    }

    List<Read> reads() {
        synchronized (reads) {
            return List.copyOf(reads);
        }
    }
}
