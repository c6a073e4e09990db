package io.sessionmesh.registry;

/** The registry could not answer: its database is unreachable, failing, or too slow. The message names the database. */
public class RegistryUnavailableException extends RuntimeException {
    public RegistryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
