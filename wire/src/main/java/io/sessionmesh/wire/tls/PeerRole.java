package io.sessionmesh.wire.tls;

import java.util.Locale;

/**
 * What a peer of a master is, as its certificate says (SECURITY.md, "Roles"): the URI subject alternative name
 * {@code urn:sessionmesh:role:<role>} ({@code docker/tls/make-dev-certs.sh --role}). Each role may send only its own
 * operations; a master checks every request, and its Raft port takes replicas only.
 */
public enum PeerRole {
    /** A master replica: Raft with the replicas of its group, GROUP_APPLY from the directory, GROUP_IMPORT from a group. */
    REPLICA,
    /** A sidecar: the data operations, REGISTER and the cluster map. */
    SIDECAR,
    /** The operator's {@code groups} command: GROUP_CHANGE and the cluster map. */
    OPERATOR;

    /** What every role's URI starts with. */
    public static final String URI_PREFIX = "urn:sessionmesh:role:";

    /** The role's URI, as a certificate names it. */
    public String uri() {
        return URI_PREFIX + name().toLowerCase(Locale.ROOT);
    }

    /** The role a URI names, or null when it names none of these. */
    public static PeerRole ofUri(String uri) {
        for (PeerRole r : values()) {
            if (r.uri().equalsIgnoreCase(uri)) {
                return r;
            }
        }
        return null;
    }
}
