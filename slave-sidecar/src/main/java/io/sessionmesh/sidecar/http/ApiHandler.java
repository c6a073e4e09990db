package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.service.SidecarOperations;
import io.sessionmesh.wire.protocol.WriteId;
import io.sessionmesh.wire.transport.CreateRequest;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.RenameRequest;
import io.sessionmesh.wire.transport.SessionPrincipal;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The REST API (openapi.yaml, PROTOCOL.md 4): calls, for each request, the operation its route names
 * ({@link ApiRoutes}) with what its path, query and body say ({@link MessageForms}), and writes the answer back to
 * {@link HttpPipeliningHandler}, which keeps the connection's order. A failure, thrown here or by the operation's
 * future, is answered by {@link ErrorResponses}: bad input is 4xx, never 500, and concerns only its own request.
 *
 * <p>Stateless, so one instance serves every connection of the server.
 */
@ChannelHandler.Sharable
final class ApiHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);

    private final SidecarOperations operations;
    private final MessageForms forms;
    private final ErrorResponses errors;
    /** The Host headers answered; others are 421 before any operation runs (DNS rebinding). */
    private final HostAllowList hosts;

    /** An API answering the loopback names only (tests). */
    ApiHandler(SidecarOperations operations, MessageForms forms, ErrorResponses errors) {
        this(operations, forms, errors, new HostAllowList(List.of(), List.of()));
    }

    ApiHandler(SidecarOperations operations, MessageForms forms, ErrorResponses errors, HostAllowList hosts) {
        this.operations = operations;
        this.forms = forms;
        this.errors = errors;
        this.hosts = hosts;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof PipelinedRequest in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        FullHttpRequest request = in.request();
        boolean binaryAnswer = MessageForms.acceptsBinary(request);
        CompletableFuture<FullHttpResponse> answer;
        try {
            if (!request.decoderResult().isSuccess()) {
                throw ErrorResponses.undecodable(request.decoderResult());
            }
            if (!hosts.allows(request.headers())) {
                throw new ErrorResponses.Rejected(HttpResponseStatus.MISDIRECTED_REQUEST, hosts.refusal(request.headers()));
            }
            answer = call(ctx.alloc(), request, binaryAnswer);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        } finally {
            // Read by now (operations get decoded copies): released before the answer, which may take a master's time.
            request.release();
        }
        answer.whenComplete((response, error) -> {
            FullHttpResponse r = error == null ? response : errors.of(error, binaryAnswer);
            if (ctx.executor().inEventLoop()) {
                answered(ctx, in, r);
            } else {
                ctx.executor().execute(() -> answered(ctx, in, r));
            }
        });
    }

    /** The answer of the operation the request's route names; a bad request throws. */
    private CompletableFuture<FullHttpResponse> call(ByteBufAllocator alloc, FullHttpRequest request, boolean binaryAnswer) {
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path = uri.path();
        switch (ApiRoutes.match(request.method(), path)) {
            case CREATE_SESSION -> {
                CreateRequest create = request.content().isReadable()
                        ? forms.decode(request, CreateRequest.class, null) : CreateRequest.DEFAULT;
                return operations.create(create).thenApply(c -> forms.answer(HttpResponseStatus.CREATED, c, binaryAnswer));
            }
            case READ_SESSION -> {
                String id = ApiRoutes.sessionId(path);
                List<String> sections = ApiRoutes.sections(uri, forms.limits().maxSectionsPerMessage());
                return operations.read(id, sections).thenApply(r -> forms.readAnswer(alloc, r, binaryAnswer));
            }
            case WRITE_SESSION -> {
                WriteRequest write = forms.decode(request, WriteRequest.class, ApiRoutes.sessionId(path));
                return operations.write(write, writeId(request))
                        .thenApply(w -> forms.answer(HttpResponseStatus.OK, w, binaryAnswer));
            }
            case DELETE_SESSION -> {
                return operations.delete(ApiRoutes.sessionId(path)).thenApply(v -> MessageForms.noContent());
            }
            case TOUCH_SESSION -> {
                return operations.touch(ApiRoutes.sessionId(path)).thenApply(v -> MessageForms.noContent());
            }
            case SET_PRINCIPAL -> {
                String id = ApiRoutes.sessionId(path);
                SessionPrincipal body = forms.decode(request, SessionPrincipal.class, id);
                String principal = body.principal().orElseThrow(() -> new MalformedMessageException(Status.BAD_REQUEST,
                        "the body has no principal: PUT sets one, DELETE clears it"));
                return operations.setPrincipal(id, principal).thenApply(v -> MessageForms.noContent());
            }
            case CLEAR_PRINCIPAL -> {
                return operations.setPrincipal(ApiRoutes.sessionId(path), null).thenApply(v -> MessageForms.noContent());
            }
            case GET_PRINCIPAL -> {
                return operations.principal(ApiRoutes.sessionId(path))
                        .thenApply(p -> forms.answer(HttpResponseStatus.OK, p, binaryAnswer));
            }
            case RENAME_SESSION -> {
                String id = ApiRoutes.sessionId(path);
                if (!request.content().isReadable()) {
                    throw new MalformedMessageException(Status.BAD_REQUEST, "a rename needs a body: RENAME_REQUEST with "
                            + "newId, idleTimeoutSeconds or both");
                }
                RenameRequest rename = forms.decode(request, RenameRequest.class, id);
                return operations.rename(id, rename).thenApply(r -> forms.answer(HttpResponseStatus.OK, r, binaryAnswer));
            }
            case PUBLISH_SCHEMA -> {
                long uid = ApiRoutes.schemaUid(path);
                return operations.publishSchema(uid, forms.schemaBody(request)).thenApply(v -> MessageForms.noContent());
            }
            case FETCH_SCHEMA -> {
                long uid = ApiRoutes.schemaUid(path);
                return operations.fetchSchema(uid).thenApply(s -> MessageForms.schemaAnswer(uid, s, binaryAnswer));
            }
            default -> throw new IllegalStateException("no operation for a route"); // every Route has a case above
        }
    }

    /**
     * A PATCH's {@code Idempotency-Key}: 32 hex digits, bare or as a quoted string (the IETF draft's structured-field
     * form), at most one; null without one (the sidecar makes a write id of its own). Anything else is 400.
     */
    static WriteId writeId(FullHttpRequest request) {
        List<String> keys = request.headers().getAll(HttpTokens.IDEMPOTENCY_KEY);
        if (keys.isEmpty()) {
            return null;
        }
        if (keys.size() > 1) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "more than one Idempotency-Key header");
        }
        String key = keys.get(0);
        if (key.length() == WriteId.HEX_CHARS + 2 && key.startsWith("\"") && key.endsWith("\"")) {
            key = key.substring(1, key.length() - 1);
        }
        try {
            return WriteId.parseHex(key);
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "Idempotency-Key: " + e.getMessage());
        }
    }

    /**
     * On the event loop: the answer goes to the pipelining handler, which writes it in its request's turn. After the
     * connection closed the channel itself releases it ({@link PipelinedRequest} then counts the answer's references).
     */
    private static void answered(ChannelHandlerContext ctx, PipelinedRequest in, FullHttpResponse response) {
        ctx.writeAndFlush(in.answer(response), ctx.voidPromise());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("closing {} after {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
