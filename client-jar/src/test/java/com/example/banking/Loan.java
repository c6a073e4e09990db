package com.example.banking;

import java.io.Serializable;

/** A value in a sibling package that shares a prefix with {@code com.example.bank}, which must not allow it. */
public record Loan(String number) implements Serializable {
}
