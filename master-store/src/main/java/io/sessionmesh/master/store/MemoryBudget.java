package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.Status;

import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The one budget of a master's store ({@code max-store}, {@link StoreLimits#maxStoreBytes()}): every byte the store
 * keeps on the heap counts against it, by category, and a change that would take it over is refused with
 * UNAVAILABLE before anything is allocated for it. What shrinks or only reads is never refused.
 *
 * <table>
 *   <caption>What is counted</caption>
 *   <tr><th>category (STATS)</th><th>charge</th></tr>
 *   <tr><td>budget_section_bytes</td><td>every section's wire form: section name, attribute names, values and
 *       their varint lengths (the old {@code store_bytes}). An attribute has no object of its own in the store: its
 *       overhead is its name and two lengths, here.</td></tr>
 *   <tr><td>budget_session_bytes</td><td>{@link #SESSION_OVERHEAD} per live session</td></tr>
 *   <tr><td>budget_section_overhead_bytes</td><td>{@link #SECTION_OVERHEAD} per stored section</td></tr>
 *   <tr><td>budget_name_bytes</td><td>{@link #NAME_OVERHEAD} plus two bytes a character per name shared in the
 *       {@link NamePool}</td></tr>
 *   <tr><td>budget_schema_bytes</td><td>{@link #SCHEMA_OVERHEAD} plus its length per schema held</td></tr>
 *   <tr><td>budget_removed_bytes</td><td>{@link #REMOVED_ENTRY_OVERHEAD} per removed session the expiry wheel may
 *       still hold (an over-estimate: the wheel's count, reset by each purge)</td></tr>
 * </table>
 *
 * <p>The overheads were measured, not derived: heap used after four {@code System.gc()} before and after 100,000 of
 * each on OpenJDK 17, G1, compressed oops ({@code StoreOverheadsTest} repeats the measurement and fails if a figure
 * grows past its constant). They leave out the maps' tables that do not shrink after a peak (about 5 bytes per
 * session and per name at the peak) and the state of connections and requests in flight, which the other 30% of the
 * heap is for ({@link #MAX_HEAP_SHARE}).
 *
 * <p>Checks and additions are not one atomic step: threads that pass the check together may take the store over by
 * one change each (at most {@code io-threads} x {@code max-session}).
 *
 * <p><b>In a group</b> every replica must take the same decision on a log entry, so what a replica applies is checked
 * against the part of the budget that is the same on every replica ({@link #replicated()}: sessions, sections and
 * schemas); the name pool and the expiry wheel are each replica's own (a replica that loaded a snapshot shares fewer
 * names; followers purge their wheels at other times) and count only in the leader's check before it proposes a
 * CREATE or a SCHEMA_PUBLISH ({@link #checkBeforeProposing}).
 */
public final class MemoryBudget {
    /**
     * Heap of one session beyond its sections: the {@code Session} object, its 22-character id String, its node and
     * slot in the sessions map and its node in the expiry wheel's queue, measured at 199 to 205 bytes before sessions carried a principal, host and registry version (16 bytes more) (100,000 empty
     * sessions, {@code StoreOverheadsTest}); plus 48 bytes for the holder bookkeeping ({@code SessionHolders} and its mask array
     * header) that the first read or write by a cache adds, counted for every session.
     */
    public static final int SESSION_OVERHEAD = 256;
    /**
     * Heap of one section beyond its wire form: the {@code EncodedSection} object (40 bytes), its byte array's header
     * and padding, its slot in the session's sections array; measured at 62 to 67 bytes (1,200,000 sections
     * of one attribute); plus the cache holder mask of 8 bytes.
     */
    public static final int SECTION_OVERHEAD = 80;
    /**
     * Heap of one name shared in the name pool, beyond two bytes a character: the String, its array header, the
     * map's node and slot; measured at 87 to 88 bytes (100,000 names of 12 Latin-1 characters).
     */
    public static final int NAME_OVERHEAD = 88;
    /** Heap of one schema beyond its bytes: the map's node and slot, the boxed uid, the array header; measured at 86.5 bytes (100,000 schemas of 100 bytes). */
    public static final int SCHEMA_OVERHEAD = 88;
    /**
     * Heap of a removed session the expiry wheel still holds (its {@code Session}, id and queue node, and the slot the
     * sessions map does not give back); measured at 168 to 176 bytes (100,000 sessions deleted), then 184 once a session
     * carried its principal, host and registry version (16 bytes more: two references and a long).
     */
    public static final int REMOVED_ENTRY_OVERHEAD = 192;
    /**
     * Heap of a session's principal beyond its chars: the String and its array headers (24 + 16, rounded up), and its
     * place in the store's {@link PrincipalIndex} (an entry of the index's map with its slot when the session is its
     * principal's only one, an array slot or a set node beyond): measured at 98.5 bytes a session with a 12-character
     * principal of its own, 109.3 with 17 sessions a principal, the smallest set (StoreOverheadsTest).
     */
    public static final int PRINCIPAL_OVERHEAD = 96;
    /** The largest share of the JVM's maximum heap a master accepts as its budget ({@code MasterConfig} refuses more). */
    public static final double MAX_HEAP_SHARE = 0.7;

    private final long max;
    /** Wire form of every stored section. */
    private final LongAdder sectionBytes = new LongAdder();
    private final LongAdder sections = new LongAdder();
    private final LongAdder nameBytes = new LongAdder();
    private final LongAdder schemaBytes = new LongAdder();
    /** Principals held by sessions ({@link #principalCost}). */
    private final LongAdder principalBytes = new LongAdder();
    private final LongAdder refusals = new LongAdder();
    private final LongSupplier liveSessions;
    private final LongSupplier removedEntries;
    /** Set on a replica of a group: the checks made while applying the log use {@link #replicated()}. */
    private volatile boolean replica;

    MemoryBudget(long max, LongSupplier liveSessions, LongSupplier removedEntries) {
        this.max = max;
        this.liveSessions = liveSessions;
        this.removedEntries = removedEntries;
    }

    /** The budget, in bytes. */
    public long max() {
        return max;
    }

    /** Every byte counted, on this process. */
    public long used() {
        return replicated() + nameBytes.sum() + removedEntries.getAsLong() * REMOVED_ENTRY_OVERHEAD;
    }

    /** The part of {@link #used()} that every replica of a group counts alike: sessions, sections and schemas. */
    public long replicated() {
        return liveSessions.getAsLong() * SESSION_OVERHEAD + sections.sum() * SECTION_OVERHEAD + sectionBytes.sum()
                + schemaBytes.sum() + principalBytes.sum();
    }

    /** Wire form of all stored sections (STATS {@code store_bytes}). */
    long sectionBytes() {
        return sectionBytes.sum();
    }

    void replica() {
        replica = true;
    }

    /**
     * Refuses, with UNAVAILABLE, a change that adds {@code growth} bytes when they do not fit; {@code what} names it in
     * the message. Nothing is counted here: the caller adds what it keeps. A replica checks {@link #replicated()}.
     */
    void check(long growth, String what) {
        if (growth > 0) {
            refuseOver(replica ? replicated() : used(), growth, what);
        }
    }

    /**
     * A group's leader, before it proposes {@code what} (a CREATE, a new schema): UNAVAILABLE unless {@code growth} more
     * bytes fit in all it counts, names and removed sessions included, so that the group is refused before its log
     * grows. Also counts the refusal.
     */
    public void checkBeforeProposing(long growth, String what) {
        if (growth > 0) {
            refuseOver(used(), growth, what);
        }
    }

    /** Whether {@code growth} more bytes fit in everything counted (the name pool's test before it shares a name). */
    boolean fits(long growth) {
        return used() + growth <= max;
    }

    private void refuseOver(long used, long growth, String what) {
        if (used + growth > max) {
            refusals.increment();
            throw new StoreException(Status.UNAVAILABLE, "the store's memory budget (max-store) is full: " + used
                    + " of " + max + " bytes used (sessions " + liveSessions.getAsLong() * SESSION_OVERHEAD
                    + ", sections " + (sectionBytes.sum() + sections.sum() * SECTION_OVERHEAD) + ", names "
                    + nameBytes.sum() + ", schemas " + schemaBytes.sum() + ", removed sessions "
                    + removedEntries.getAsLong() * REMOVED_ENTRY_OVERHEAD + "); " + what + " needs " + growth
                    + " more; deletes, reads and writes that shrink are still served");
        }
    }

    void sectionsChanged(long count, long wireBytes) {
        if (count != 0) {
            sections.add(count);
        }
        if (wireBytes != 0) {
            sectionBytes.add(wireBytes);
        }
    }

    void namesChanged(long bytes) {
        nameBytes.add(bytes);
    }

    void principalsChanged(long bytes) {
        principalBytes.add(bytes);
    }

    /**
     * What a session's principal costs: {@link #PRINCIPAL_OVERHEAD} plus two bytes a char (a UTF-16 string at worst);
     * 0 for none.
     */
    public static long principalCost(String principal) {
        return principal == null ? 0 : PRINCIPAL_OVERHEAD + 2L * principal.length();
    }

    void schemasChanged(long bytes) {
        schemaBytes.add(bytes);
    }

    /** What a name costs in the pool. */
    static long nameCost(String name) {
        return NAME_OVERHEAD + 2L * name.length();
    }

    /** What a schema of {@code length} bytes costs. */
    static long schemaCost(int length) {
        return SCHEMA_OVERHEAD + (long) length;
    }

    /** The budget's figures for STATS. */
    void putInto(Map<String, Long> stats) {
        stats.put("budget_max_bytes", max);
        stats.put("budget_used_bytes", used());
        stats.put("budget_session_bytes", liveSessions.getAsLong() * SESSION_OVERHEAD);
        stats.put("budget_section_bytes", sectionBytes.sum());
        stats.put("budget_section_overhead_bytes", sections.sum() * SECTION_OVERHEAD);
        stats.put("budget_name_bytes", nameBytes.sum());
        stats.put("budget_schema_bytes", schemaBytes.sum());
        stats.put("budget_principal_bytes", principalBytes.sum());
        stats.put("budget_removed_bytes", removedEntries.getAsLong() * REMOVED_ENTRY_OVERHEAD);
        stats.put("budget_refusals", refusals.sum());
    }
}
