package com.example.bank;

import java.io.Serializable;
import java.math.BigDecimal;

/**
 * A value of an application whose package is {@code com.example.bank}: what {@code sessionmesh.allowed-packages} is
 * written for in the Spring tests.
 */
public record Account(String number, BigDecimal balance, Owner owner) implements Serializable {
    /** A nested class, allowed with its outer class's package. */
    public record Owner(String name) implements Serializable {
    }
}
