package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.cache.SectionCache;
import io.sessionmesh.sidecar.service.SidecarService;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ResourceLeakDetector;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of the sidecar's HTTP servers, the whole pipeline of {@link SidecarHttpInitializer} on an
 * EmbeddedChannel, with a service whose master is never reached ({@link OfflineService}: what needs the master is
 * answered 503 at once). Input: bit 0 of byte 1 picks the admin server, byte 1's other bits the size of the pieces the
 * rest arrives in. The contract: no exception reaches the end of the pipeline; what comes out is well-formed HTTP
 * responses; a request without a body (a request line, a blank line after it, no Content-Length or Transfer-Encoding: whether a
 * body is whole is not known here) gets an answer or a close; every buffer written in is
 * released. Seeds: SidecarHttpFuzzTestInputs.
 */
class SidecarHttpFuzzTest {
    /** A request line (after the empty lines a server skips) and, later, the blank line that ends the head. */
    private static final java.util.regex.Pattern WHOLE_REQUEST_HEAD =
            java.util.regex.Pattern.compile("^(\\r?\\n)*[A-Za-z]+ \\S+ HTTP/1\\.[01]\\r?\\n(?s:.*?)\\r?\\n\\r?\\n");

    static {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    private final SidecarService service = OfflineService.of(new SectionCache(1 << 20, Duration.ofMinutes(5)));
    private final SidecarHttpInitializer api = new SidecarHttpInitializer(SidecarHttpInitializerTest.config("100"), service, false);
    private final SidecarHttpInitializer admin = new SidecarHttpInitializer(SidecarHttpInitializerTest.config("100"), service, true);

    @FuzzTest(maxDuration = "2m")
    void serve(byte[] input) {
        if (input.length == 0) {
            return;
        }
        boolean toAdmin = (input[0] & 1) != 0;
        int piece = ((input[0] & 0xFF) >>> 1) + 1;
        EmbeddedChannel channel = new EmbeddedChannel(toAdmin ? admin : api);
        List<ByteBuf> written = new ArrayList<>();
        ByteBuf out = Unpooled.buffer();
        try {
            for (int at = 1; at < input.length && channel.isOpen(); at += piece) {
                ByteBuf chunk = Unpooled.wrappedBuffer(input, at, Math.min(piece, input.length - at));
                written.add(chunk);
                channel.writeInbound(chunk); // rethrows what reached the end of the pipeline
                channel.runPendingTasks();
                drain(channel, out);
            }
            channel.runPendingTasks();
            channel.checkException();
            drain(channel, out);
            String request = new String(input, 1, input.length - 1, StandardCharsets.ISO_8859_1);
            String lower = request.toLowerCase(java.util.Locale.ROOT);
            boolean bodyMayBePending = lower.contains("content-length") || lower.contains("transfer-encoding");
            if (!bodyMayBePending && WHOLE_REQUEST_HEAD.matcher(request).find()) {
                assertTrue(out.isReadable() || !channel.isOpen(), "a request got neither an answer nor a close");
            }
            checkResponses(out, request.startsWith("HEAD") || request.contains("\nHEAD"));
        } finally {
            channel.finishAndReleaseAll();
            out.release();
        }
        for (ByteBuf chunk : written) {
            assertEquals(0, chunk.refCnt(), "an input buffer was not released");
        }
    }

    private static void drain(EmbeddedChannel channel, ByteBuf out) {
        for (Object o; (o = channel.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            out.writeBytes(b);
            b.release();
        }
    }

    /** Every byte written out parses as HTTP responses (a HEAD's answer has a length and no body: not checked). */
    private static void checkResponses(ByteBuf out, boolean head) {
        if (!out.isReadable() || head) {
            return;
        }
        assertTrue(out.toString(0, Math.min(9, out.readableBytes()), StandardCharsets.US_ASCII).startsWith("HTTP/1.1 "),
                () -> "not an HTTP response: " + out.toString(StandardCharsets.US_ASCII));
        EmbeddedChannel client = new EmbeddedChannel(new HttpResponseDecoder());
        client.writeInbound(out.retainedDuplicate());
        client.finish();
        for (Object o; (o = client.readInbound()) != null; ) {
            try {
                HttpObject http = (HttpObject) o;
                assertTrue(http.decoderResult().isSuccess(), () -> "malformed response: " + http.decoderResult().cause()
                        + "\n" + out.toString(StandardCharsets.US_ASCII));
                if (http instanceof HttpResponse response) {
                    assertTrue(response.status().code() >= 100 && response.status().code() < 600, response::toString);
                }
            } finally {
                ReferenceCountUtil.release(o);
            }
        }
    }
}
