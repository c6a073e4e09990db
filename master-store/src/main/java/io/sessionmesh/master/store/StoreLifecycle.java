package io.sessionmesh.master.store;

import io.sessionmesh.registry.LifecycleEvent;
import io.sessionmesh.registry.LifecycleSink;

/**
 * How a store tells the registry of its sessions' lives: each step becomes a {@link LifecycleEvent} naming this
 * store's owner (the master, or its group), sent to the sink. Called under the session's monitor, after its
 * {@code registryVersion} has moved, so one session's events reach the sink in version order.
 */
final class StoreLifecycle {
    private final LifecycleSink sink;
    private final String owner;
    /** Added to the store's ticker times to make epoch milliseconds. */
    private final long epochOffset;

    StoreLifecycle(LifecycleSink sink, String owner, long epochOffset) {
        this.sink = sink;
        this.owner = owner;
        this.epochOffset = epochOffset;
    }

    boolean isOff() {
        return sink == LifecycleSink.NONE;
    }

    void created(Session session) {
        if (!isOff()) {
            synchronized (session) {
                sink.record(event(LifecycleEvent.Kind.CREATED, session, session.createdAt));
            }
        }
    }

    /** Under the session's monitor. */
    void record(LifecycleEvent.Kind kind, Session session, long now) {
        if (!isOff()) {
            sink.record(event(kind, session, now));
        }
    }

    /** Under the session's monitor. */
    LifecycleEvent event(LifecycleEvent.Kind kind, Session session, long now) {
        return new LifecycleEvent(kind, session.id, session.registryVersion, session.principal, session.host, owner,
                session.createdAt + epochOffset, now + epochOffset);
    }
}
