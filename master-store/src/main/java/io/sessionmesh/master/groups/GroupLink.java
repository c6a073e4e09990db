package io.sessionmesh.master.groups;

import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A master's (or the admin command's) link to the leader of another master group, for the group operations of
 * PROTOCOL.md 3.9: one connection at a time, to the replica taken for the leader; a NOT_LEADER answer moves it to the
 * replica named, a replica that cannot be reached or does not answer to the next one, until the call's deadline.
 * Blocking, one call at a time (callers are the group threads of {@link GroupOps} and the admin command).
 */
public final class GroupLink implements AutoCloseable {
    /** Pause between two attempts at a group with no leader (an election, a replica restarting). */
    static final long RETRY_MILLIS = 50;

    private final List<String> replicas;
    private final EventLoopGroup loop;
    private final MasterConnectionOptions options;
    private int target;
    private MasterConnection connection;
    private String lastError = "not tried yet";

    public GroupLink(List<String> replicas, EventLoopGroup loop, MasterConnectionOptions options) {
        this.replicas = List.copyOf(replicas);
        this.loop = loop;
        this.options = options;
    }

    /** The group's name (its first replica). */
    public String name() {
        return replicas.get(0);
    }

    /**
     * Sends a group operation to the group's leader and returns the OK answer's body.
     *
     * @throws StoreException the leader's refusal as it answered it (status and message), or UNAVAILABLE when no
     *     leader answered within {@code timeoutMillis}, naming the last error
     */
    public synchronized byte[] call(int opcode, byte[] body, long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            try {
                MasterConnection c = connection();
                long left = Math.max(1, deadline - System.nanoTime());
                return c.groupOp(opcode, body).get(left, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(Status.UNAVAILABLE, "interrupted while calling group " + name());
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                if (cause instanceof StoreException se) {
                    throw se;
                }
                MasterException refused = MasterException.of(cause);
                int status = refused == null ? Status.UNAVAILABLE : refused.status();
                if (status == Status.NOT_LEADER) {
                    moveTo(refused.masterMessage());
                    lastError = replicas.get(target) + " is not the leader";
                } else if (status == Status.UNAVAILABLE || status == Status.TIMEOUT || cause instanceof TimeoutException) {
                    lastError = replicas.get(target) + ": " + (cause.getMessage() != null ? cause.getMessage() : cause.toString());
                    drop();
                    target = (target + 1) % replicas.size();
                } else {
                    throw new StoreException(status, refused.masterMessage() != null ? refused.masterMessage() : cause.getMessage());
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new StoreException(Status.UNAVAILABLE, "no leader of group " + name() + " answered in " + timeoutMillis
                        + " ms: " + lastError);
            }
            try {
                Thread.sleep(RETRY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(Status.UNAVAILABLE, "interrupted while calling group " + name());
            }
        }
    }

    private MasterConnection connection() throws ExecutionException, InterruptedException, TimeoutException {
        MasterConnection c = connection;
        if (c != null && c.isOpen()) {
            return c;
        }
        String r = replicas.get(target);
        int colon = r.lastIndexOf(':');
        InetSocketAddress address = new InetSocketAddress(r.substring(0, colon), Integer.parseInt(r.substring(colon + 1)));
        c = MasterConnection.connect(loop, address, options, (conn, id, push) -> { })
                .get(options.connectTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        connection = c;
        return c;
    }

    private void moveTo(String hint) {
        drop();
        int named = hint == null ? -1 : replicas.indexOf(hint);
        target = named >= 0 && named != target ? named : (target + 1) % replicas.size();
    }

    private void drop() {
        MasterConnection c = connection;
        connection = null;
        if (c != null) {
            c.close();
        }
    }

    @Override
    public synchronized void close() {
        drop();
    }
}
