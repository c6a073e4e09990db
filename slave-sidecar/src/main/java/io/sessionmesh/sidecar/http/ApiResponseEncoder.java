package io.sessionmesh.sidecar.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * The REST API port's response encoder: a whole answer (status line, headers, body) into one buffer of exactly its
 * size, so that it leaves in one send, where Netty's general encoder writes the body apart from the head (two buffers,
 * a gathering write). The status lines are built once. Answers reach it whole ({@link HttpPipeliningHandler} has set
 * Content-Length and Connection); as Netty's server encoder does, a 1xx or 204 answer carries no Content-Length.
 * Anything else written (the decoder's {@code 100 Continue}, already bytes) passes through.
 */
final class ApiResponseEncoder extends MessageToByteEncoder<FullHttpResponse> {
    /** "HTTP/1.1 code reason\r\n" of every code 100..599 with Netty's reason, built once (published by class init). */
    private static final byte[][] STATUS_LINES = new byte[600][];

    static {
        for (int code = 100; code < STATUS_LINES.length; code++) {
            STATUS_LINES[code] = line(code, HttpResponseStatus.valueOf(code).reasonPhrase());
        }
    }

    private static byte[] line(int code, String reason) {
        return ("HTTP/1.1 " + code + " " + reason + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    private static final int CRLF = ('\r' << 8) | '\n';
    private static final int COLON_SP = (':' << 8) | ' ';

    ApiResponseEncoder() {
        super(FullHttpResponse.class, true);
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, FullHttpResponse msg, boolean preferDirect) {
        sanitize(msg);
        int size = statusLine(msg.status()).length + 2 + msg.content().readableBytes();
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = msg.headers().iteratorCharSequence(); it.hasNext(); ) {
            Map.Entry<CharSequence, CharSequence> h = it.next();
            size += h.getKey().length() + h.getValue().length() + 4;
        }
        return ctx.alloc().ioBuffer(size);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, FullHttpResponse msg, ByteBuf out) {
        out.writeBytes(statusLine(msg.status()));
        for (Iterator<Map.Entry<CharSequence, CharSequence>> it = msg.headers().iteratorCharSequence(); it.hasNext(); ) {
            Map.Entry<CharSequence, CharSequence> h = it.next();
            ByteBufUtil.writeAscii(out, h.getKey());
            out.writeShort(COLON_SP);
            ByteBufUtil.writeAscii(out, h.getValue());
            out.writeShort(CRLF);
        }
        out.writeShort(CRLF);
        ByteBuf body = msg.content();
        out.writeBytes(body, body.readerIndex(), body.readableBytes());
    }

    private static void sanitize(FullHttpResponse msg) {
        HttpResponseStatus status = msg.status();
        if (status.codeClass() == HttpStatusClass.INFORMATIONAL || status.code() == HttpResponseStatus.NO_CONTENT.code()) {
            HttpHeaders h = msg.headers();
            h.remove(HttpHeaderNames.CONTENT_LENGTH);
            h.remove(HttpHeaderNames.TRANSFER_ENCODING);
        }
    }

    /** The status line: a standard one from the table; a status with a reason of its own, or out of range, built each time. */
    private static byte[] statusLine(HttpResponseStatus status) {
        int code = status.code();
        boolean standard = code >= 100 && code < STATUS_LINES.length
                && HttpResponseStatus.valueOf(code).reasonPhrase().equals(status.reasonPhrase());
        return standard ? STATUS_LINES[code] : line(code, status.reasonPhrase());
    }
}
