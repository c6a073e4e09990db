package io.sessionmesh.serialization.transport;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A write to one session: per-section deltas, applied atomically together. */
public record WriteRequest(String sessionId, List<SectionDelta> deltas) {

    public WriteRequest {
        Names.checkSessionId(sessionId);
        Set<String> seen = new HashSet<>();
        for (SectionDelta delta : deltas) {
            if (!seen.add(delta.section())) {
                throw MalformedMessageException.badRequest("section " + Names.describe(delta.section())
                        + " has two deltas in one write");
            }
        }
        deltas = List.copyOf(deltas);
    }
}
