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

    /** A payment card (section cards). */
    record Card(String id, String maskedPan, String currency, BigDecimal balance, LocalDate expiry) implements Serializable {
    }

    /** The cards page: the cards and the daily limits by currency (sections cards and limits). */
    record CardsView(List<Card> cards, java.util.Map<String, BigDecimal> dailyLimits) implements Serializable {
    }

    /** A new daily limit for one currency. */
    record LimitRequest(String currency, BigDecimal amount) {
    }

    /** What a client asks for when opening a deposit (or saves as a draft). */
    record OpenRequest(BigDecimal amount, int months) {
    }
}
