package io.sessionmesh.sidecar.http;

import io.netty.channel.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One bound for the answers queued on every REST connection of a sidecar at once ({@code outbound-budget}), beside
 * each connection's own ({@code max-outbound}): an answer's body counts from the moment it is written to its
 * connection until the socket has taken it (or the connection closed). Without it {@code max-outbound} x
 * {@code max-http-connections} (64 MiB x 10,000) was what clients that do not read their answers could make a sidecar
 * hold. Past the budget, the connections holding the most queued bytes are closed, as slow consumers
 * ({@code http_slow_consumers_closed}), until the rest fit: a client that reads its answers holds almost nothing
 * queued, so the ones closed are those that do not read.
 *
 * <p>Thread-safe: one instance is shared by every connection of the REST server, across its event loops; a connection
 * is closed from whichever loop found the budget passed ({@link Channel#close()} runs on the channel's own loop).
 */
final class OutboundBudget {
    private static final Logger log = LoggerFactory.getLogger(OutboundBudget.class);

    private final long limit;
    private final AtomicLong queued;
    private final LongAdder closed;
    /** Bytes queued now, by connection (only those with an answer written and not yet taken by the socket). */
    private final Map<Channel, AtomicLong> byConnection = new ConcurrentHashMap<>();
    /** Connections this budget closed whose close has not run yet: closed once, counted once. */
    private final java.util.Set<Channel> closing = ConcurrentHashMap.newKeySet();

    /**
     * @param queued the bytes queued now over every connection, kept here (the sidecar's metrics read the same counter)
     * @param closed counts the connections closed to stay within the budget
     */
    OutboundBudget(long limit, AtomicLong queued, LongAdder closed) {
        this.limit = limit;
        this.queued = queued;
        this.closed = closed;
    }

    /** Counts an answer of {@code bytes} written to {@code ch}; then, past the budget, closes the largest holders. */
    void add(Channel ch, long bytes) {
        byConnection.computeIfAbsent(ch, c -> new AtomicLong()).addAndGet(bytes);
        if (queued.addAndGet(bytes) > limit) {
            shed();
        }
    }

    /** The socket took an answer of {@code bytes} of {@code ch}, or the connection closed with it. */
    void release(Channel ch, long bytes) {
        queued.addAndGet(-bytes);
        AtomicLong mine = byConnection.get(ch);
        if (mine != null) {
            mine.addAndGet(-bytes);
        }
    }

    /** Bytes queued now over every connection. */
    long queued() {
        return queued.get();
    }

    /** The connection closed: it holds nothing any more (its answers' writes failed, each released). */
    void forget(Channel ch) {
        byConnection.remove(ch);
        closing.remove(ch);
    }

    /** Closes the connections holding the most queued bytes until what the others hold fits the budget. */
    private synchronized void shed() {
        List<Map.Entry<Channel, AtomicLong>> holders = new ArrayList<>(byConnection.entrySet());
        holders.sort((a, b) -> Long.compare(b.getValue().get(), a.getValue().get()));
        long projected = queued.get();
        for (Map.Entry<Channel, AtomicLong> h : holders) {
            if (projected <= limit) {
                return;
            }
            Channel ch = h.getKey();
            long bytes = h.getValue().get();
            if (closing.contains(ch)) {
                projected -= bytes; // being closed already: its bytes are on their way back
                continue;
            }
            if (bytes <= 0 || !closing.add(ch)) {
                continue;
            }
            projected -= bytes;
            closed.increment();
            log.warn("closing {}: {} bytes of its answers queued and not read, while the answers queued over every "
                    + "connection passed outbound-budget ({} bytes)", ch.remoteAddress(), bytes, limit);
            ch.close(); // its answers' bytes come back through release() as their writes fail
        }
    }
}
