package io.sessionmesh.registry;

import java.util.function.Consumer;

/**
 * A master's store as a re-sync reads it: every session it holds now, as one {@link LifecycleEvent.Kind#ACTIVE}
 * event each (its current version, principal, host, owner and creation time). Weakly consistent: a session created
 * or removed while it runs may or may not be seen, and its own event covers it.
 */
@FunctionalInterface
public interface ActiveSessions {
    void forEach(Consumer<LifecycleEvent> active);
}
