package io.sessionmesh.serialization.transport;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The answer to a {@link WriteRequest}: the new version of each written section. */
public record WriteResult(String sessionId, Map<String, Long> versions) {

    public WriteResult {
        Names.checkSessionId(sessionId);
        Map<String, Long> copy = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : versions.entrySet()) {
            Names.checkName(e.getKey(), "section name");
            if (e.getValue() == null || e.getValue() < 0) {
                throw MalformedMessageException.badRequest("section " + Names.describe(e.getKey()) + " has version "
                        + e.getValue());
            }
            copy.put(e.getKey(), e.getValue());
        }
        versions = Collections.unmodifiableMap(copy);
    }
}
