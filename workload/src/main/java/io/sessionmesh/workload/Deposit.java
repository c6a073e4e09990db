package io.sessionmesh.workload;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Objects;

/** A deposit account of a client. */
public class Deposit implements Serializable {
    private static final long serialVersionUID = 1L;

    public String accountNumber;
    public String productName;
    public String currency;
    public BigDecimal amount;
    public BigDecimal rate;
    public LocalDate openedOn;
    public LocalDate closesOn;

    public Deposit() {
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Deposit)) {
            return false;
        }
        Deposit d = (Deposit) o;
        return Objects.equals(accountNumber, d.accountNumber) && Objects.equals(productName, d.productName)
                && Objects.equals(currency, d.currency) && Objects.equals(amount, d.amount) && Objects.equals(rate, d.rate)
                && Objects.equals(openedOn, d.openedOn) && Objects.equals(closesOn, d.closesOn);
    }

    @Override
    public int hashCode() {
        return Objects.hash(accountNumber, amount);
    }
}
