package io.sessionmesh.client;

import java.util.List;

/**
 * The live sessions of a principal, as {@link SessionMeshClient#sessionsOf(String)} found them on the masters at the
 * moment of the call.
 *
 * @param ids the sessions' ids, in no particular order, none twice; unmodifiable
 * @param complete whether every live session of the principal is listed: false when a master (group) did not answer
 *     (the others' sessions are listed), one holds more than 1,000 sessions of the principal (it lists 1,000), or master
 *     groups are moving sessions
 */
public record PrincipalSessions(List<String> ids, boolean complete) {
    public PrincipalSessions {
        ids = List.copyOf(ids);
    }
}
