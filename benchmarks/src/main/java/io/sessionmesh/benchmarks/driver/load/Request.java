package io.sessionmesh.benchmarks.driver.load;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpMethod;

/**
 * One HTTP request of a load: its kind (what latency and errors are counted under), the host of the stack it goes
 * to, the session it names in {@value HttpLoad#SESSION_HEADER} (or none), its JSON body (or none), and what to do
 * with its answer.
 *
 * @param answer null: a 2xx answer is served, anything else an error; else it is told of the answer and says whether
 *               it counts as served
 */
public record Request(String kind, HttpMethod method, String path, int host, String session, byte[] body, Answer answer) {
    /** A request whose 2xx answers are served and other answers errors. */
    public static Request of(String kind, HttpMethod method, String path, int host, String session, byte[] body) {
        return new Request(kind, method, path, host, session, body, null);
    }

    /** What a request's sender does with its answer, on the load's event loop. */
    @FunctionalInterface
    public interface Answer {
        /**
         * The answer's status and body (valid during the call only); true when it counts as served, false when it is an
         * error.
         */
        boolean accept(int status, ByteBuf body);
    }

    /**
     * Where a load's requests come from. Called on the load's one event loop only (so an implementation needs no lock
     * for its own state), with the random generator of the closed-loop user or of the open-loop schedule.
     */
    @FunctionalInterface
    public interface Traffic {
        /** The next request; null when there is none (a closed-loop user then stops). */
        Request next(java.util.SplittableRandom random);
    }
}
