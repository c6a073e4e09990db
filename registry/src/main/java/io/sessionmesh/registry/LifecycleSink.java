package io.sessionmesh.registry;

/**
 * Where a master's store sends its sessions' lifecycle events. Called on the request path (a store's create,
 * delete, expiry...): an implementation takes the event in O(1) without blocking and never throws.
 */
@FunctionalInterface
public interface LifecycleSink {
    /** The registry is off: events go nowhere. */
    LifecycleSink NONE = event -> {
    };

    void record(LifecycleEvent event);
}
