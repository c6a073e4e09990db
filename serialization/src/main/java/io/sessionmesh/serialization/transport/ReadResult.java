package io.sessionmesh.serialization.transport;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The answer to a {@link ReadRequest}: each asked section, in the order asked. */
public record ReadResult(String sessionId, List<SectionData> sections) {

    public ReadResult {
        Names.checkSessionId(sessionId);
        Set<String> seen = new HashSet<>();
        for (SectionData section : sections) {
            if (!seen.add(section.name())) {
                throw MalformedMessageException.badRequest("section " + Names.describe(section.name()) + " appears twice");
            }
        }
        sections = List.copyOf(sections);
    }
}
