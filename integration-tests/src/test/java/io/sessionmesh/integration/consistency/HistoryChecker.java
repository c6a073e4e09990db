package io.sessionmesh.integration.consistency;

import io.sessionmesh.integration.consistency.History.Read;
import io.sessionmesh.integration.consistency.History.Write;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks a {@link History} for the promises of coherent caches, per section and per attribute:
 * <ul>
 * <li><b>stale read</b>: a read returned a section version, or an attribute value, older than a write that was
 *     acknowledged before the read was invoked (real time: completion before invocation);</li>
 * <li><b>lost write</b>: an acknowledged write that the final state (read after every client stopped) does not
 *     hold, or two acknowledged writes of one section with the same version;</li>
 * <li><b>bad value</b>: a value that no version explains: from a write of another attribute, from a write invoked
 *     after the read completed, newer than the section version it came with, or older than the newest acknowledged
 *     write of that attribute at or below that version (a torn or wrongly merged section).</li>
 * </ul>
 * Writes that failed (timeouts, a cut connection) have no known version: they may have been applied, so their
 * values are allowed wherever they could be, and they never count as lost.
 */
final class HistoryChecker {
    /** The number of examples of each kind of violation kept for the report. */
    static final int EXAMPLES = 10;

    record Verdict(long reads, long writes, long acknowledgedWrites, long unknownWrites, long finalReads,
                   long staleReads, long lostWrites, long badValues, List<String> examples) {
        boolean passed() {
            return staleReads == 0 && lostWrites == 0 && badValues == 0;
        }
    }

    private final int attributes;
    private final Map<Long, Write> byId = new HashMap<>();
    /** Per section (session * sections + section): its acknowledged writes in order of completion. */
    private final Map<Long, Timeline> sectionTimelines = new HashMap<>();
    /** Per attribute (section key * attributes + attribute): the acknowledged writes that set it, by completion and by version. */
    private final Map<Long, Timeline> attributeTimelines = new HashMap<>();
    private final Map<Long, TreeMap<Long, Write>> byVersion = new HashMap<>();
    private static final TreeMap<Long, Write> EMPTY = new TreeMap<>();
    private final int sectionsPerSession;
    private final List<String> examples = new ArrayList<>();
    private long staleReads;
    private long lostWrites;
    private long badValues;

    private HistoryChecker(int sectionsPerSession, int attributes) {
        this.sectionsPerSession = sectionsPerSession;
        this.attributes = attributes;
    }

    /**
     * Checks every read and, with {@code finalReads} (reads invoked after every write had completed or failed),
     * that no acknowledged write was lost.
     */
    static Verdict check(List<Write> writes, List<Read> reads, List<Read> finalReads, int sectionsPerSession,
                         int attributes) {
        HistoryChecker c = new HistoryChecker(sectionsPerSession, attributes);
        c.index(writes);
        for (Read r : reads) {
            c.checkRead(r);
        }
        for (Read r : finalReads) {
            c.checkRead(r);
            c.checkFinal(r);
        }
        long acknowledged = writes.stream().filter(Write::acknowledged).count();
        return new Verdict(reads.size(), writes.size(), acknowledged, writes.size() - acknowledged, finalReads.size(),
                c.staleReads, c.lostWrites, c.badValues, List.copyOf(c.examples));
    }

    private int sectionKey(int session, int section) {
        return session * sectionsPerSession + section;
    }

    private long attributeKey(int sectionKey, int attribute) {
        return (long) sectionKey * attributes + attribute;
    }

    private void index(List<Write> writes) {
        Map<Long, List<Write>> perSection = new HashMap<>();
        for (Write w : writes) {
            if (byId.put(w.id(), w) != null) {
                throw new IllegalArgumentException("two writes with id " + w.id());
            }
            if (!w.acknowledged()) {
                continue;
            }
            int key = sectionKey(w.session(), w.section());
            perSection.computeIfAbsent((long) key, k -> new ArrayList<>()).add(w);
            for (int a = 0; a < attributes; a++) {
                if (w.sets(a)) {
                    byVersion.computeIfAbsent(attributeKey(key, a), k -> new TreeMap<>()).put(w.version(), w);
                }
            }
        }
        for (Map.Entry<Long, List<Write>> e : perSection.entrySet()) {
            List<Write> ws = new ArrayList<>(e.getValue());
            ws.sort(Comparator.comparingLong(Write::version));
            for (int i = 1; i < ws.size(); i++) {
                if (ws.get(i).version() == ws.get(i - 1).version()) {
                    lostWrites++;
                    violation("lost", "writes " + ws.get(i - 1) + " and " + ws.get(i)
                            + " were both acknowledged with version " + ws.get(i).version());
                }
            }
            sectionTimelines.put(e.getKey(), new Timeline(e.getValue()));
        }
        byVersion.forEach((k, ws) -> attributeTimelines.put(k, new Timeline(List.copyOf(ws.values()))));
    }

    /** Acknowledged writes in order of completion, with the one of highest version among the first i. */
    private static final class Timeline {
        final long[] completed;
        final Write[] newestUpTo;

        Timeline(List<Write> writes) {
            List<Write> ws = new ArrayList<>(writes);
            ws.sort(Comparator.comparingLong(Write::completed));
            completed = new long[ws.size()];
            newestUpTo = new Write[ws.size()];
            Write newest = null;
            for (int i = 0; i < ws.size(); i++) {
                Write w = ws.get(i);
                completed[i] = w.completed();
                if (newest == null || w.version() > newest.version()) {
                    newest = w;
                }
                newestUpTo[i] = newest;
            }
        }

        /** The acknowledged write of highest version among those completed strictly before {@code time}, or null. */
        Write newestCompletedBefore(long time) {
            int lo = 0;
            int hi = completed.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (completed[mid] < time) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo == 0 ? null : newestUpTo[lo - 1];
        }
    }

    /** The acknowledged write of highest version, for this section, among those completed before {@code time}; or null. */
    private Write requiredWrite(int key, long time) {
        Timeline t = sectionTimelines.get((long) key);
        return t == null ? null : t.newestCompletedBefore(time);
    }

    private void checkRead(Read r) {
        boolean stale = false;
        for (int i = 0; i < r.sections().length; i++) {
            int key = sectionKey(r.session(), r.sections()[i]);
            long version = r.versions()[i];
            Write required = requiredWrite(key, r.invoked());
            if (required != null && version < required.version()) {
                stale = true;
                violation("stale", "read " + describe(r) + " got section " + r.sections()[i] + " at version " + version
                        + ", but version " + required.version() + " was acknowledged before it began, by " + required
                        + "; version " + version + " was written by " + writeOf(key, version));
            }
            for (int a = 0; a < attributes; a++) {
                stale |= checkValue(r, i, key, version, a);
            }
        }
        if (stale) {
            staleReads++;
        }
    }

    /** Checks one attribute's value against the section version it came with; true if it is stale. */
    private boolean checkValue(Read r, int i, int key, long version, int a) {
        long value = r.values()[i * attributes + a];
        TreeMap<Long, Write> acknowledged = byVersion.getOrDefault(attributeKey(key, a), EMPTY);
        Map.Entry<Long, Write> expected = acknowledged.floorEntry(version);
        Timeline timeline = attributeTimelines.get(attributeKey(key, a));
        Write newestBefore = timeline == null ? null : timeline.newestCompletedBefore(r.invoked());
        if (value == History.ABSENT) {
            if (newestBefore != null) {
                violation("stale", "read " + describe(r) + " found no attribute " + a + " of section " + r.sections()[i]
                        + ", but " + newestBefore + " was acknowledged before it began");
                return true;
            }
            if (expected != null) {
                bad(r, "found no attribute " + a + " at version " + version + ", which holds " + expected.getValue());
            }
            return false;
        }
        Write w = byId.get(value);
        if (w == null || w.session() != r.session() || sectionKey(w.session(), w.section()) != key || !w.sets(a)) {
            bad(r, "attribute " + a + " of section " + r.sections()[i] + " holds value " + value
                    + ", which no write put there (" + w + ")");
            return false;
        }
        if (w.invoked() > r.completed()) {
            bad(r, "attribute " + a + " holds " + w + ", invoked after the read completed");
            return false;
        }
        if (!w.acknowledged()) {
            return false; // an unacknowledged write may have been applied at any version: nothing more to check
        }
        if (newestBefore != null && w.version() < newestBefore.version()) {
            violation("stale", "read " + describe(r) + " got attribute " + a + " from " + w + ", older than "
                    + newestBefore + ", acknowledged before it began");
            return true;
        }
        if (w.version() > version) {
            bad(r, "attribute " + a + " holds " + w + ", newer than the section's version " + version);
        } else if (expected != null && expected.getValue().version() > w.version()) {
            bad(r, "attribute " + a + " holds " + w + " at version " + version + ", where " + expected.getValue()
                    + " is newer");
        }
        return false;
    }

    /** After every client stopped: each acknowledged write must still be there (or overwritten by a newer one). */
    private void checkFinal(Read r) {
        for (int i = 0; i < r.sections().length; i++) {
            int key = sectionKey(r.session(), r.sections()[i]);
            long version = r.versions()[i];
            for (int a = 0; a < attributes; a++) {
                TreeMap<Long, Write> acknowledged = byVersion.get(attributeKey(key, a));
                if (acknowledged == null || acknowledged.isEmpty()) {
                    continue;
                }
                Write newest = acknowledged.lastEntry().getValue();
                long value = r.values()[i * attributes + a];
                Write found = value == History.ABSENT ? null : byId.get(value);
                boolean held = found != null && (found.id() == newest.id()
                        || !found.acknowledged() && found.invoked() < r.completed());
                if (!held || version < newest.version()) {
                    lostWrites++;
                    violation("lost", "final read " + describe(r) + " of attribute " + a + " at version " + version
                            + " holds " + found + " instead of the last acknowledged write " + newest);
                }
            }
        }
    }

    /** The acknowledged write that made that version of a section, or "no acknowledged write" (a failed one may have). */
    private String writeOf(int key, long version) {
        for (int a = 0; a < attributes; a++) {
            Write w = byVersion.getOrDefault(attributeKey(key, a), EMPTY).get(version);
            if (w != null) {
                return w.toString();
            }
        }
        return "no acknowledged write";
    }

    private void bad(Read r, String what) {
        badValues++;
        violation("bad", "read " + describe(r) + ": " + what);
    }

    private void violation(String kind, String text) {
        if (examples.stream().filter(e -> e.startsWith(kind)).count() < EXAMPLES) {
            examples.add(kind + ": " + text);
        }
    }

    private static String describe(Read r) {
        return "by client " + r.client() + " on sidecar " + r.sidecar() + " of session " + r.session() + " sections "
                + Arrays.toString(r.sections()) + " versions " + Arrays.toString(r.versions()) + " [" + r.invoked()
                + ".." + r.completed() + "]";
    }
}
