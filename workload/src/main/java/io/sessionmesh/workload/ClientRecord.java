package io.sessionmesh.workload;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The client record a front service keeps in the session: names, dates, cards, deposits, rates, offers. */
public class ClientRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    public String clientId;
    public String firstName;
    public String lastName;
    public LocalDate birthDate;
    public String segment;
    public List<Card> cards;
    public List<Deposit> deposits;
    public Map<String, BigDecimal> rates;
    public List<Offer> offers;

    public ClientRecord() {
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ClientRecord)) {
            return false;
        }
        ClientRecord c = (ClientRecord) o;
        return Objects.equals(clientId, c.clientId) && Objects.equals(firstName, c.firstName)
                && Objects.equals(lastName, c.lastName) && Objects.equals(birthDate, c.birthDate)
                && Objects.equals(segment, c.segment) && Objects.equals(cards, c.cards)
                && Objects.equals(deposits, c.deposits) && Objects.equals(rates, c.rates) && Objects.equals(offers, c.offers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(clientId, lastName);
    }
}
