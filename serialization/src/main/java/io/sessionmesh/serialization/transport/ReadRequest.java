package io.sessionmesh.serialization.transport;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A batch read: the named sections of one session, in one call. */
public record ReadRequest(String sessionId, List<String> sections) {

    public ReadRequest {
        Names.checkSessionId(sessionId);
        Set<String> seen = new HashSet<>();
        for (String name : sections) {
            Names.checkName(name, "section name");
            if (!seen.add(name)) {
                throw MalformedMessageException.badRequest("section " + Names.describe(name) + " is asked for twice");
            }
        }
        sections = List.copyOf(sections);
    }
}
