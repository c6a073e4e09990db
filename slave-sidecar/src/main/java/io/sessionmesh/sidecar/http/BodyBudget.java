package io.sessionmesh.sidecar.http;

import io.netty.handler.codec.DecoderException;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One budget for the request bodies of every REST connection of a sidecar ({@code body-budget}): bytes are reserved
 * as a body starts to arrive (its Content-Length at once, a chunked body chunk by chunk) and given back when its
 * request's answer is written, or dropped unanswered, or its connection closes. A body that does not fit is not read
 * into memory: its request is answered 503 with {@code Retry-After}, its bytes are skipped and the connection goes
 * on ({@link ApiRequestDecoder}). So {@code max-body} x {@code max-pipelined} x {@code max-http-connections} (32 MiB x
 * 128 x 10,000) is no longer what a sidecar may be made to hold.
 *
 * <p>Why refuse rather than stop reading until the budget frees: a connection stopped mid-body still holds what it
 * reserved, and a decoder asks for more reads while a body is incomplete; connections waiting for each
 * other's budget could wait forever. A refusal is answered at once and holds nothing; the caller sees UNAVAILABLE
 * (the client jar's SidecarUnavailableException) and may try again after {@code Retry-After}.
 *
 * <p>Thread-safe: one instance is shared by every connection of the REST server, across its event loops.
 */
final class BodyBudget {
    /** What a refused request's {@code Retry-After} says, in seconds. */
    static final int RETRY_AFTER_SECONDS = 1;

    private final long limit;
    private final AtomicLong reserved;
    private final LongAdder refused;

    /**
     * @param reserved the bytes reserved now, kept here (the sidecar's metrics read the same counter)
     * @param refused counts the requests refused for want of budget
     */
    BodyBudget(long limit, AtomicLong reserved, LongAdder refused) {
        this.limit = limit;
        this.reserved = reserved;
        this.refused = refused;
    }

    /** A budget nothing is refused by (tests of other handlers). */
    static BodyBudget unlimited() {
        return new BodyBudget(Long.MAX_VALUE, new AtomicLong(), new LongAdder());
    }

    /** Reserves {@code bytes} if they fit; false (and counted as refused) if they do not. */
    boolean tryReserve(long bytes) {
        if (bytes <= 0) {
            return true;
        }
        for (long now = reserved.get(); ; now = reserved.get()) {
            if (now + bytes > limit) {
                refused.increment();
                return false;
            }
            if (reserved.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Gives back bytes reserved before. */
    void release(long bytes) {
        if (bytes > 0) {
            reserved.addAndGet(-bytes);
        }
    }

    long limit() {
        return limit;
    }

    /** Bytes reserved now. */
    long reserved() {
        return reserved.get();
    }

    /** The decoder failure of a request whose body did not fit the budget: answered 503 with Retry-After. */
    static final class Exhausted extends DecoderException {
        private static final long serialVersionUID = 1L;

        Exhausted(String message) {
            super(message);
        }
    }
}
