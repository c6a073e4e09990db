package io.sessionmesh.registry;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CopyTextTest {
    private static String copy(String value) throws IOException {
        StringWriter w = new StringWriter();
        CopyText.value(w, value);
        return w.toString();
    }

    @Test
    void value_specialCharacters_escaped() throws IOException {
        assertEquals("\\N", copy(null));
        assertEquals("a\\\\b\\tc\\nd\\re", copy("a\\b\tc\nd\re"));
        assertEquals("\\x01\\x7f", copy("\u0001\u007f"));
        assertEquals("Zoë 用户 \uD83D\uDE00", copy("Zoë 用户 \uD83D\uDE00"));
        assertEquals("\\N", copy(null));
        assertEquals("a\uFFFDb", copy("a\u0000b"));
    }
}
