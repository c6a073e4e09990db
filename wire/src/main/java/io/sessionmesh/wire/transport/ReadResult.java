package io.sessionmesh.wire.transport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The answer to a {@link ReadRequest}: the sections read, whole, with distinct names. Immutable, apart from
 * the shared value arrays (see {@link TransportMessage}).
 */
public final class ReadResult implements TransportMessage {
    private final String sessionId;
    private final List<SectionData> sections;

    /**
     * @param sessionId a session id ({@link TransportLimits} rules)
     * @param sections copied; distinct names
     */
    public ReadResult(String sessionId, List<SectionData> sections) {
        this.sessionId = TransportLimits.checkSessionId(sessionId);
        Objects.requireNonNull(sections, "sections");
        List<SectionData> copy = new ArrayList<>(sections.size());
        Set<String> seen = new HashSet<>(ModelSupport.capacity(sections.size()));
        for (SectionData s : sections) {
            Objects.requireNonNull(s, "section");
            if (!seen.add(s.name())) {
                throw new IllegalArgumentException("read result: duplicate section " + Utf8.quote(s.name()));
            }
            copy.add(s);
        }
        this.sections = Collections.unmodifiableList(copy);
    }

    private ReadResult(String sessionId, List<SectionData> sections, Void trusted) {
        this.sessionId = sessionId;
        this.sections = sections;
    }

    static ReadResult trusted(String sessionId, List<SectionData> unmodifiableSections) {
        return new ReadResult(sessionId, unmodifiableSections, null);
    }

    @Override
    public int type() {
        return MessageTypes.READ_RESULT;
    }

    public String sessionId() {
        return sessionId;
    }

    /** Unmodifiable, in the order given. */
    public List<SectionData> sections() {
        return sections;
    }

    /** The section of that name, if the result has it. */
    public Optional<SectionData> section(String name) {
        for (SectionData s : sections) {
            if (s.name().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReadResult r && r.sessionId.equals(sessionId) && r.sections.equals(sections);
    }

    @Override
    public int hashCode() {
        return sessionId.hashCode() * 31 + sections.hashCode();
    }

    @Override
    public String toString() {
        return "read result of " + ModelSupport.sessionTag(sessionId) + ": " + sections;
    }
}
