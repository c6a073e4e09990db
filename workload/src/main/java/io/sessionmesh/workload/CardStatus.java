package io.sessionmesh.workload;

/** State of a payment card. */
public enum CardStatus { ACTIVE, BLOCKED, EXPIRED, CLOSED }
