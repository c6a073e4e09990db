package io.sessionmesh.wire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/**
 * The decoder that keeps a write in its wire form answers every input of {@link WriteRequestCorpus} as the decoder
 * before it did (the model it builds re-encodes to the same bytes; a refusal has the same status and message).
 */
class WriteRequestCorpusTest {
    @Test
    void decode_everyCorpusInput_sameOutcomeAsTheModelDecoder() throws IOException {
        BinaryTransportCodec codec = new BinaryTransportCodec();
        int lines = 0;
        int accepted = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                WriteRequestCorpusTest.class.getResourceAsStream("write-request-corpus.txt"), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                int tab = line.indexOf('\t');
                byte[] input = HexFormat.of().parseHex(line, 0, tab);
                String want = line.substring(tab + 1);
                assertEquals(want, WriteRequestCorpus.outcome(codec, input), "input " + lines);
                lines++;
                accepted += want.startsWith("OK ") ? 1 : 0;
            }
        }
        assertEquals(1500, lines);
        assertTrue(accepted > 500 && accepted < 1000, accepted + " accepted");
    }
}
