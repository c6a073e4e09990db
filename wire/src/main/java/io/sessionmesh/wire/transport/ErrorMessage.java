package io.sessionmesh.wire.transport;

import java.util.Objects;

/**
 * A failed request's answer: a {@link Status} code (never {@link Status#OK}) and a message for humans of at
 * most {@value TransportLimits#MAX_ERROR_MESSAGE_BYTES} UTF-8 bytes. Codes this version does not know are
 * kept as they are, so that a newer peer's errors pass through. Immutable.
 */
public final class ErrorMessage implements TransportMessage {
    private static final char REPLACEMENT = '\uFFFD';

    private final int status;
    private final String message;

    /**
     * @param status 1..{@value Status#MAX_CODE}
     * @param message at most {@value TransportLimits#MAX_ERROR_MESSAGE_BYTES} bytes of UTF-8, no unpaired
     *     surrogate; see {@link #of} to build one from any text
     */
    public ErrorMessage(int status, String message) {
        if (status <= Status.OK || status > Status.MAX_CODE) {
            throw new IllegalArgumentException("error status " + status + " is outside 1.." + Status.MAX_CODE);
        }
        Objects.requireNonNull(message, "message");
        int bytes = Utf8.textLength(message);
        if (bytes < 0) {
            throw new IllegalArgumentException("error message has an unpaired surrogate at index " + (-bytes - 1));
        }
        if (bytes > TransportLimits.MAX_ERROR_MESSAGE_BYTES) {
            throw new IllegalArgumentException("error message is " + bytes + " bytes of UTF-8; the limit is "
                    + TransportLimits.MAX_ERROR_MESSAGE_BYTES);
        }
        this.status = status;
        this.message = message;
    }

    /**
     * An error from any text (an exception's message, say): null becomes "", unpaired surrogates become
     * U+FFFD, and the text is cut to {@code maxBytes} of UTF-8 without splitting a char.
     */
    public static ErrorMessage of(int status, String text, int maxBytes) {
        if (maxBytes < 0 || maxBytes > TransportLimits.MAX_ERROR_MESSAGE_BYTES) {
            throw new IllegalArgumentException("maxBytes " + maxBytes + " is outside 0.." + TransportLimits.MAX_ERROR_MESSAGE_BYTES);
        }
        String s = text == null ? "" : text;
        StringBuilder sb = new StringBuilder(Math.min(s.length(), maxBytes));
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int cb;
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            if (pair) {
                cb = 4;
            } else if (Character.isSurrogate(c)) {
                c = REPLACEMENT;
                cb = 3;
            } else {
                cb = c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
            }
            if (bytes + cb > maxBytes) {
                break;
            }
            bytes += cb;
            sb.append(c);
            if (pair) {
                sb.append(s.charAt(++i));
            }
        }
        return new ErrorMessage(status, sb.toString());
    }

    /** {@link #of(int, String, int)} with the protocol's maximum. */
    public static ErrorMessage of(int status, String text) {
        return of(status, text, TransportLimits.MAX_ERROR_MESSAGE_BYTES);
    }

    /** The answer to a message that failed to decode. */
    public static ErrorMessage of(MalformedMessageException e) {
        return of(e.status(), e.getMessage());
    }

    @Override
    public int type() {
        return MessageTypes.ERROR;
    }

    /** A {@link Status} code, possibly one this version does not know. */
    public int status() {
        return status;
    }

    public String message() {
        return message;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ErrorMessage e && e.status == status && e.message.equals(message);
    }

    @Override
    public int hashCode() {
        return status * 31 + message.hashCode();
    }

    @Override
    public String toString() {
        return "error " + Status.name(status) + ": " + message;
    }
}
