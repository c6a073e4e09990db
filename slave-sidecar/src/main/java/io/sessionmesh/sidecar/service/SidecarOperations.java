package io.sessionmesh.sidecar.service;

import io.sessionmesh.wire.protocol.WriteId;
import io.sessionmesh.wire.transport.CreateRequest;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.PrincipalSessions;
import io.sessionmesh.wire.transport.RenameRequest;
import io.sessionmesh.wire.transport.SessionCreated;
import io.sessionmesh.wire.transport.SessionPrincipal;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the REST API asks of the sidecar, one method per operation of PROTOCOL.md 4, whatever the content type.
 * {@link SidecarService} is the implementation; the HTTP layer depends on this interface alone so that its handlers
 * can be unit-tested with canned futures, completed or not, and no master.
 *
 * <p>Every result is a future that may complete at once (a cache hit) or later on another thread (a master's
 * answer). A failure carries its status as {@link SidecarService#status(Throwable)} reads it.
 */
public interface SidecarOperations {
    /** A read's answer, and whether it is stale: served from the cache while no master could be asked. */
    record ReadOutcome(EncodedReadResult result, boolean stale) {
    }

    /** A new session on the next reachable master, or, with a requested id, on the master that owns that id. */
    CompletableFuture<SessionCreated> create(CreateRequest request);

    /**
     * Moves a session to the request's new id and/or gives it the request's idle timeout, on its master, atomically;
     * answered with the session's id and timeouts after it. This sidecar's cache drops what it held of the old id.
     */
    CompletableFuture<SessionCreated> rename(String sessionId, RenameRequest request);

    /** A batch read of named sections, every one of them in the answer. */
    CompletableFuture<ReadOutcome> read(String sessionId, List<String> sections);

    /** A write, acknowledged by the session's master; with a write id of this sidecar's own. */
    default CompletableFuture<WriteResult> write(WriteRequest request) {
        return write(request, null);
    }

    /**
     * A write, acknowledged by the session's master, under {@code writeId} (the caller's {@code Idempotency-Key}; null:
     * the sidecar makes one): sent again with the same id, it is applied at most once (PROTOCOL.md 3.12). A failure with
     * OUTCOME_UNKNOWN means it may or may not have been applied, after the sidecar's own retries.
     */
    CompletableFuture<WriteResult> write(WriteRequest request, WriteId writeId);

    /** Starts the session's idle time again. */
    CompletableFuture<Void> touch(String sessionId);

    /** Deletes the session. */
    CompletableFuture<Void> delete(String sessionId);

    /**
     * Sets the session's principal, or clears it ({@code principal} null), on the session's master. Never touches the
     * section cache: the principal is not a section.
     */
    CompletableFuture<Void> setPrincipal(String sessionId, String principal);

    /** The session's principal, or none, as its master holds it (the session is not used: its idle time goes on). */
    CompletableFuture<SessionPrincipal> principal(String sessionId);

    /**
     * The live sessions of {@code principal} on every master (group), as the masters hold them now: never from the
     * section cache, never cached. Incomplete ({@link PrincipalSessions#complete()} false) when a master could not be
     * asked, listed only part of them, or groups are moving sessions; fails (UNAVAILABLE) only when no master answered.
     */
    CompletableFuture<PrincipalSessions> sessionsOf(String principal);

    /** Stores a one-nio schema under its uid. */
    CompletableFuture<Void> publishSchema(long uid, byte[] schema);

    /** A schema by uid. */
    CompletableFuture<byte[]> fetchSchema(long uid);
}
