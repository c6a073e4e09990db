package io.sessionmesh.workload;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;

/** A marketing offer shown to a client. */
public class Offer implements Serializable {
    private static final long serialVersionUID = 1L;

    public String code;
    public String title;
    public BigDecimal limit;
    public LocalDate validUntil;
    public List<String> channels;

    public Offer() {
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Offer)) {
            return false;
        }
        Offer f = (Offer) o;
        return Objects.equals(code, f.code) && Objects.equals(title, f.title) && Objects.equals(limit, f.limit)
                && Objects.equals(validUntil, f.validUntil) && Objects.equals(channels, f.channels);
    }

    @Override
    public int hashCode() {
        return Objects.hash(code, title);
    }
}
