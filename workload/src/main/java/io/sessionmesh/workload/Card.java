package io.sessionmesh.workload;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Objects;

/** A payment card of a client, as a card service keeps it in the session. */
public class Card implements Serializable {
    private static final long serialVersionUID = 1L;

    public String id;
    public String maskedPan;
    public String currency;
    public BigDecimal balance;
    public LocalDate expiry;
    public CardStatus status;
    public boolean primary;

    public Card() {
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Card)) {
            return false;
        }
        Card c = (Card) o;
        return primary == c.primary && Objects.equals(id, c.id) && Objects.equals(maskedPan, c.maskedPan)
                && Objects.equals(currency, c.currency) && Objects.equals(balance, c.balance)
                && Objects.equals(expiry, c.expiry) && status == c.status;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, maskedPan, balance);
    }
}
