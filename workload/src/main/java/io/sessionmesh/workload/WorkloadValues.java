package io.sessionmesh.workload;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The attribute values of docs/WORKLOAD.md, made deterministically (seeded): client records (names, dates, cards,
 * deposits, a map of BigDecimal rates, offers) grown to a target serialized size, as the {@link SerializedSize} given
 * measures it, and the 5 x 1 KB byte[] message. The same value for the same kind and the same size function, every
 * run. Thread-safe if the size function is.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>a client record without lists</td><td>at most {@value #BARE_CLIENT_BYTES} B targeted</td></tr>
 *   <tr><td>blobs of {@link #fiveBlobs()}</td><td>{@value #BLOBS} of {@value #BLOB_BYTES} B</td></tr>
 * </table>
 */
public final class WorkloadValues {
    /** Targets up to this many bytes get a client record of only an id and a last name. */
    public static final int BARE_CLIENT_BYTES = 64;
    /** Blobs in {@link #fiveBlobs()}. */
    public static final int BLOBS = 5;
    /** Bytes of each blob in {@link #fiveBlobs()}. */
    public static final int BLOB_BYTES = 1024;

    private static final String[] FIRST = {"Ivan", "Maria", "Aleksei", "Olga", "Dmitry", "Anna"};
    private static final String[] LAST = {"Petrov", "Sidorova", "Kuznetsov", "Smirnova", "Volkov", "Popova"};
    private static final String[] CURRENCIES = {"RUB", "USD", "EUR", "CNY"};

    /** The values every benchmark uses. */
    public enum Kind {
        /** The workload's median value: a client record of about 200 bytes in one-nio plain mode. */
        SMALL(200),
        /** A client record of about 64 B. */
        B64(64),
        /** About 256 B. */
        B256(256),
        /** About 1 KB. */
        KB1(1024),
        /** About 8 KB: the workload's p99. */
        KB8(8 * 1024),
        /** About 64 KB: the largest values. */
        KB64(64 * 1024),
        /** Five attributes of 1 KB of random bytes (a LinkedHashMap of byte[]), the reference system's message. */
        BLOBS_5X1KB(5 * 1024);

        private final int targetBytes;

        Kind(int targetBytes) {
            this.targetBytes = targetBytes;
        }

        /** The serialized size the value is grown to. */
        public int targetBytes() {
            return targetBytes;
        }
    }

    private final SerializedSize size;

    /** Values grown to their target as {@code size} measures them. */
    public WorkloadValues(SerializedSize size) {
        this.size = size;
    }

    /** The value of a kind. */
    public Object of(Kind kind) {
        if (kind == Kind.BLOBS_5X1KB) {
            return fiveBlobs();
        }
        return clientOfSize(kind.targetBytes());
    }

    /** Five attributes of 1 KB of random bytes. */
    public static Map<String, byte[]> fiveBlobs() {
        Random random = new Random(5);
        Map<String, byte[]> blobs = new LinkedHashMap<>();
        for (int i = 0; i < BLOBS; i++) {
            byte[] blob = new byte[BLOB_BYTES];
            random.nextBytes(blob);
            blobs.put("blob" + i, blob);
        }
        return blobs;
    }

    /**
     * A client record whose serialized size is the smallest at or above {@code targetBytes} that its parts allow:
     * first without lists, then adding cards, deposits, rates and offers in turn. Seeded by {@code targetBytes}.
     */
    public ClientRecord clientOfSize(int targetBytes) {
        Random random = new Random(targetBytes);
        ClientRecord client = new ClientRecord();
        client.clientId = "C" + (10_000_000 + random.nextInt(90_000_000));
        client.lastName = LAST[random.nextInt(LAST.length)];
        if (targetBytes <= BARE_CLIENT_BYTES) {
            return client;
        }
        client.firstName = FIRST[random.nextInt(FIRST.length)];
        client.birthDate = LocalDate.of(1950 + random.nextInt(55), 1 + random.nextInt(12), 1 + random.nextInt(28));
        client.segment = "MASS";
        client.cards = new ArrayList<>();
        client.deposits = new ArrayList<>();
        client.rates = new LinkedHashMap<>();
        client.offers = new ArrayList<>();
        for (int step = 0; size.of(client) < targetBytes; step++) {
            switch (step % 4) {
                case 0:
                    client.cards.add(card(random));
                    break;
                case 1:
                    client.deposits.add(deposit(random));
                    break;
                case 2:
                    client.rates.put(CURRENCIES[random.nextInt(CURRENCIES.length)] + "/" + step,
                            BigDecimal.valueOf(random.nextInt(10_000_000), 4));
                    break;
                default:
                    client.offers.add(offer(random, step));
                    break;
            }
        }
        return client;
    }

    private static Card card(Random random) {
        Card card = new Card();
        card.id = "card-" + (100_000 + random.nextInt(900_000));
        card.maskedPan = "4276 38** **** " + (1000 + random.nextInt(9000));
        card.currency = CURRENCIES[random.nextInt(CURRENCIES.length)];
        card.balance = BigDecimal.valueOf(random.nextInt(100_000_000), 2);
        card.expiry = LocalDate.of(2026 + random.nextInt(6), 1 + random.nextInt(12), 1);
        card.status = CardStatus.values()[random.nextInt(CardStatus.values().length)];
        card.primary = random.nextInt(4) == 0;
        return card;
    }

    private static Deposit deposit(Random random) {
        Deposit deposit = new Deposit();
        deposit.accountNumber = "42305810" + (100_000_000_000L + random.nextInt(900_000_000));
        deposit.productName = random.nextBoolean() ? "Savings Plus" : "Term Deposit 12m";
        deposit.currency = CURRENCIES[random.nextInt(CURRENCIES.length)];
        deposit.amount = BigDecimal.valueOf(random.nextInt(500_000_000), 2);
        deposit.rate = BigDecimal.valueOf(100 + random.nextInt(1500), 2);
        deposit.openedOn = LocalDate.of(2020 + random.nextInt(6), 1 + random.nextInt(12), 1 + random.nextInt(28));
        deposit.closesOn = deposit.openedOn.plusMonths(6 + random.nextInt(30));
        return deposit;
    }

    private static Offer offer(Random random, int step) {
        Offer offer = new Offer();
        offer.code = "OFF-" + step + "-" + random.nextInt(1000);
        offer.title = random.nextBoolean() ? "Cashback 5% on travel" : "Pre-approved credit line";
        offer.limit = BigDecimal.valueOf(random.nextInt(3_000_000), 0);
        offer.validUntil = LocalDate.of(2027, 1 + random.nextInt(12), 1);
        offer.channels = List.of("MOBILE", "WEB");
        return offer;
    }
}
