package io.sessionmesh.serialization.transport;

import java.nio.charset.StandardCharsets;

/** An error answer: a {@link Status} code and a message for humans (cut to 4 KiB of UTF-8). */
public record ErrorMessage(int status, String message) {

    public ErrorMessage {
        if (status <= Status.OK || status > 255) {
            throw MalformedMessageException.badRequest("error status must be 1..255: " + status);
        }
        message = message == null ? "" : cut(message);
    }

    /** The error of a decoding failure. */
    public static ErrorMessage of(MalformedMessageException e) {
        return new ErrorMessage(e.status(), e.getMessage());
    }

    private static String cut(String message) {
        if (message.length() * 3 <= TransportLimits.MAX_ERROR_MESSAGE_BYTES
                || message.getBytes(StandardCharsets.UTF_8).length <= TransportLimits.MAX_ERROR_MESSAGE_BYTES) {
            return message;
        }
        String cut = message.substring(0, TransportLimits.MAX_ERROR_MESSAGE_BYTES / 3);
        if (Character.isHighSurrogate(cut.charAt(cut.length() - 1))) {
            cut = cut.substring(0, cut.length() - 1);
        }
        return cut + "...";
    }
}
