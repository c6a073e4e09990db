package io.sessionmesh.springsession;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * The values kept in the session and the JSON of the answers: the example service's records, field for field, so that
 * both answer the same JSON. Serializable: Spring Session on Redis stores attributes with JDK serialization.
 */
final class Model {
    private Model() {
    }

    /** Who the user is (clientInfo.client). */
    record ClientInfo(String clientId, String firstName, String lastName, LocalDate birthDate, String segment)
            implements Serializable {
    }

    /** An interest rate offered for a term (interestRates.rates). */
    record Rate(String currency, int months, BigDecimal percent) implements Serializable {
    }

    /** What the offer page shows. */
    record Offer(String clientName, String currency, List<Rate> rates) implements Serializable {
    }

    /** A deposit opened in this session (deposits.opened), or a draft (deposits.draft). */
    record Deposit(String id, String currency, BigDecimal amount, int months, BigDecimal percent, LocalDate openedOn)
            implements Serializable {
    }

    /** A payment card (cards.list), in the standard seed only. */
    record Card(String id, String maskedPan, String currency, BigDecimal balance, LocalDate expiry) implements Serializable {
    }

    /** What a client asks for when opening a deposit (or saves as a draft). */
    record OpenRequest(BigDecimal amount, int months) {
    }
}
