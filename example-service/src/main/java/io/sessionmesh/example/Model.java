package io.sessionmesh.example;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/** The values this service keeps in the shared session: plain Java objects, serialized by the client jar. */
final class Model {
    private Model() {
    }

    /** Who the user is (section clientInfo), written at login by the service that knows it. */
    record ClientInfo(String clientId, String firstName, String lastName, LocalDate birthDate, String segment)
            implements Serializable {
    }

    /** An interest rate offered for a term (section interestRates). */
    record Rate(String currency, int months, BigDecimal percent) implements Serializable {
    }

    /** What the offer page shows. */
    record Offer(String clientName, String currency, List<Rate> rates) implements Serializable {
    }

    /** A deposit opened in this session (section deposits). */
    record Deposit(String id, String currency, BigDecimal amount, int months, BigDecimal percent, LocalDate openedOn)
            implements Serializable {
    }

    /** What a client asks for when opening a deposit. */
    record OpenRequest(BigDecimal amount, int months) {
    }
}
