package io.sessionmesh.master.handler;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.ReadTimeoutHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * Closes a connection from which nothing was read for the idle timeout. It watches reads only: watching writes too
 * would put a listener on every answer, and a connection that stops reading its answers stops being read as well
 * ({@link FlowControlHandler}), so it falls idle and is closed all the same.
 */
public final class IdleCloser extends ReadTimeoutHandler {
    private static final Logger log = LoggerFactory.getLogger(IdleCloser.class);

    private final ServerCounters counters;

    public IdleCloser(long timeoutMillis, ServerCounters counters) {
        super(timeoutMillis, TimeUnit.MILLISECONDS);
        this.counters = counters;
    }

    @Override
    protected void readTimedOut(ChannelHandlerContext ctx) {
        counters.idleClosed.increment();
        log.debug("closing idle connection {}", ctx.channel().remoteAddress());
        ctx.close();
    }
}
