package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.service.SidecarOperations;
import io.sessionmesh.wire.transport.CreateRequest;
import io.sessionmesh.wire.transport.SessionCreated;
import io.sessionmesh.wire.transport.PrincipalSessions;
import io.sessionmesh.wire.transport.RenameRequest;
import io.sessionmesh.wire.transport.SessionPrincipal;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Operations that answer with the futures a test queued, in call order, whatever the operation, and record each
 * call: handler unit tests without a master. A call with nothing queued fails the test's request with a 500.
 */
final class CannedOperations implements SidecarOperations {
    private final ArrayDeque<CompletableFuture<?>> answers = new ArrayDeque<>();
    /** Each call, as "operation argument...". */
    final List<String> calls = new ArrayList<>();
    /** The last message or schema bytes an operation was given. */
    Object lastArgument;

    /** Queues the future the next call returns. */
    <T> CompletableFuture<T> willAnswer(CompletableFuture<T> answer) {
        answers.add(answer);
        return answer;
    }

    /** Queues a future of the next call that completes when the test says. */
    <T> CompletableFuture<T> willAnswerLater() {
        return willAnswer(new CompletableFuture<>());
    }

    @SuppressWarnings("unchecked")
    private <T> CompletableFuture<T> next(String call, Object argument) {
        calls.add(call);
        lastArgument = argument;
        if (answers.isEmpty()) {
            throw new IllegalStateException("the test queued no answer for " + call);
        }
        return (CompletableFuture<T>) answers.remove();
    }

    @Override
    public CompletableFuture<SessionCreated> create(CreateRequest request) {
        return next("create " + request.idleTimeoutSeconds() + request.principal().map(p -> " " + p).orElse(""), request);
    }

    @Override
    public CompletableFuture<ReadOutcome> read(String sessionId, List<String> sections) {
        return next("read " + sessionId + " " + sections, sections);
    }

    @Override
    public CompletableFuture<WriteResult> write(WriteRequest request, io.sessionmesh.wire.protocol.WriteId writeId) {
        return next("write " + request.sessionId() + (writeId == null ? "" : " id " + writeId.hex()), request);
    }

    @Override
    public CompletableFuture<Void> touch(String sessionId) {
        return next("touch " + sessionId, sessionId);
    }

    @Override
    public CompletableFuture<Void> delete(String sessionId) {
        return next("delete " + sessionId, sessionId);
    }

    @Override
    public CompletableFuture<Void> setPrincipal(String sessionId, String principal) {
        return next("setPrincipal " + sessionId + " " + principal, principal);
    }

    @Override
    public CompletableFuture<SessionCreated> rename(String sessionId, RenameRequest request) {
        return next("rename " + sessionId + " " + request.newId().orElse("-") + " " + request.idleTimeoutSeconds(), request);
    }

    @Override
    public CompletableFuture<PrincipalSessions> sessionsOf(String principal) {
        return next("sessionsOf " + principal, principal);
    }

    @Override
    public CompletableFuture<SessionPrincipal> principal(String sessionId) {
        return next("principal " + sessionId, sessionId);
    }

    @Override
    public CompletableFuture<Void> publishSchema(long uid, byte[] schema) {
        return next("publishSchema " + Long.toHexString(uid), schema);
    }

    @Override
    public CompletableFuture<byte[]> fetchSchema(long uid) {
        return next("fetchSchema " + Long.toHexString(uid), uid);
    }
}
