package io.sessionmesh.wire.transport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A write: one {@link SectionDelta} per section (distinct section names) of one session. Immutable, apart
 * from the shared value arrays (see {@link TransportMessage}).
 *
 * <p>A request the binary decoder made keeps its wire form ({@link #encoded()}) and builds the model of its deltas
 * only when {@link #deltas()} is first called: a store applies the wire form straight to its sections, without a map
 * or a copy per value in between.
 */
public final class WriteRequest implements TransportMessage {
    private final String sessionId;
    /** The deltas in the model; built from {@link #encoded} when first asked for, if decoded. */
    private volatile List<SectionDelta> deltas;
    /** The wire form, when this request was decoded from it or has been asked for it (else null). */
    private volatile EncodedWrite encoded;

    /**
     * @param sessionId a session id ({@link TransportLimits} rules)
     * @param deltas copied; distinct section names
     */
    public WriteRequest(String sessionId, List<SectionDelta> deltas) {
        this.sessionId = TransportLimits.checkSessionId(sessionId);
        Objects.requireNonNull(deltas, "deltas");
        List<SectionDelta> copy = new ArrayList<>(deltas.size());
        Set<String> seen = new HashSet<>(ModelSupport.capacity(deltas.size()));
        for (SectionDelta d : deltas) {
            Objects.requireNonNull(d, "delta");
            if (!seen.add(d.section())) {
                throw new IllegalArgumentException("write request: two deltas of section " + Utf8.quote(d.section()));
            }
            copy.add(d);
        }
        this.deltas = Collections.unmodifiableList(copy);
    }

    private WriteRequest(String sessionId, List<SectionDelta> deltas, EncodedWrite encoded) {
        this.sessionId = sessionId;
        this.deltas = deltas;
        this.encoded = encoded;
    }

    static WriteRequest trusted(String sessionId, List<SectionDelta> unmodifiableDeltas) {
        return new WriteRequest(sessionId, unmodifiableDeltas, null);
    }

    /** For the binary decoder: a request in its checked wire form, its model built when asked for. */
    static WriteRequest trusted(EncodedWrite encoded) {
        return new WriteRequest(encoded.sessionId(), null, encoded);
    }

    @Override
    public int type() {
        return MessageTypes.WRITE_REQUEST;
    }

    public String sessionId() {
        return sessionId;
    }

    /** Unmodifiable, in the order given. */
    public List<SectionDelta> deltas() {
        List<SectionDelta> d = deltas;
        if (d == null) {
            d = encoded.deltas(); // a decoded request: the model is built once, values copied
            deltas = d;
        }
        return d;
    }

    /**
     * The request in its wire form, for a store to apply: the decoder's, or one encoded from the model the first time
     * it is asked for.
     */
    public EncodedWrite encoded() {
        EncodedWrite e = encoded;
        if (e == null) {
            e = EncodedWrite.of(this);
            encoded = e;
        }
        return e;
    }

    /** The wire form if this request was decoded (or already encoded), else null. */
    EncodedWrite encodedIfDecoded() {
        return encoded;
    }

    /** The number of deltas, without building the model of a decoded request. */
    public int deltaCount() {
        EncodedWrite e = encoded;
        return e != null ? e.deltaCount() : deltas.size();
    }

    /** The section of delta {@code d}, without building the model of a decoded request. */
    public String section(int d) {
        EncodedWrite e = encoded;
        return e != null ? e.section(d) : deltas.get(d).section();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WriteRequest w && w.sessionId.equals(sessionId) && w.deltas().equals(deltas());
    }

    @Override
    public int hashCode() {
        return sessionId.hashCode() * 31 + deltas().hashCode();
    }

    @Override
    public String toString() {
        return "write to " + ModelSupport.sessionTag(sessionId) + ": " + deltas();
    }
}
