package io.sessionmesh.client.routing;

import io.sessionmesh.wire.placement.HashRing;

import java.util.List;

/**
 * Keeps a user's session on one consumer node, so that node's sidecar cache sees it again: a consistent-hash ring of
 * the nodes of one service ({@value #DEFAULT_VNODES} virtual nodes each by default) maps a session id to a node. A
 * gateway that routes by itself asks {@link #nodeFor}; a load balancer that hashes a cookie keys on the route cookie
 * whose value {@link #routeFor} gives (the node's name, so the balancer may also map it directly). When a node leaves,
 * only the sessions it held move.
 */
public final class StickyRouter {
    /** Virtual nodes per node. */
    public static final int DEFAULT_VNODES = 256;

    private final HashRing<String> ring;

    public StickyRouter(List<String> nodes) {
        this(nodes, DEFAULT_VNODES);
    }

    public StickyRouter(List<String> nodes, int vnodes) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a sticky router needs at least one node");
        }
        this.ring = new HashRing<>(nodes, nodes, vnodes);
    }

    /** The node that serves a session. */
    public String nodeFor(String sessionId) {
        return ring.nodeFor(sessionId);
    }

    /** The value of the route cookie for a session: the name of the node that serves it. */
    public String routeFor(String sessionId) {
        return nodeFor(sessionId);
    }

    public List<String> nodes() {
        return ring.nodes();
    }
}
