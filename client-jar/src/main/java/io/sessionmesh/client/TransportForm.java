package io.sessionmesh.client;

/**
 * The form of the messages between the client and its sidecar (PROTOCOL.md 4): both carry the same sections,
 * versions and attribute bytes; the binary form is smaller and cheaper to make and read, the JSON form can be read
 * by people and by any HTTP tool (attribute values are base64 in it).
 */
public enum TransportForm {
    /** {@code application/x-sessionmesh}: the default. */
    BINARY("application/x-sessionmesh"),
    /** {@code application/json}. */
    JSON("application/json");

    private final String contentType;

    TransportForm(String contentType) {
        this.contentType = contentType;
    }

    /** The HTTP content type of this form. */
    public String contentType() {
        return contentType;
    }
}
