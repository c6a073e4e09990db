package io.sessionmesh.sidecar.http;

/**
 * A connection's share of the {@link BodyBudget}, as the handler that reads requests holds it: what it reserved for
 * the request it just handed on, taken with that request by {@link HttpPipeliningHandler} and given back once the
 * request's answer is written (or it is dropped, or the connection closes).
 */
interface BodyReservations {
    /** What was reserved for the request just handed on: the caller gives it back when that request is done. */
    long takeReserved();

    /** Gives back what a request handed on with {@link #takeReserved()} held. */
    void release(long bytes);
}
