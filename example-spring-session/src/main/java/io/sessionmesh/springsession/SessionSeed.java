package io.sessionmesh.springsession;

import io.sessionmesh.springsession.Model.Card;
import io.sessionmesh.springsession.Model.ClientInfo;
import io.sessionmesh.springsession.Model.Rate;
import io.sessionmesh.workload.SessionShape;
import io.sessionmesh.workload.ValueSizes;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What a login leaves in a new session, as the example service's seed does, with attributes named
 * {@code section.attribute}. {@linkplain Profile#STANDARD Standard}: docs/WORKLOAD.md's {@value #SECTIONS} sections of
 * {@value #ATTRIBUTES_PER_SECTION} attributes, the typed values the pages read plus a source, a date, flags and an
 * opaque byte[] of the workload's log-normal size ({@link ValueSizes}) in every section. {@linkplain Profile#SMALL
 * Small}: only the three attributes the deposit pages read. Seeded by the client id: a client's session is the same at
 * every login.
 */
final class SessionSeed {
    /** Sections per session in the standard profile, as in the workload. */
    static final int SECTIONS = SessionShape.SECTIONS;
    /** Attributes per section in the standard profile, as in the workload. */
    static final int ATTRIBUTES_PER_SECTION = SessionShape.ATTRIBUTES;
    /** The section names, as the example service's; the first three are the ones the deposit pages read. */
    static final List<String> SECTION_NAMES = List.of("clientInfo", "defaultCurrency", "interestRates", "cards", "limits",
            "deposits", "offers", "accounts", "loans", "documents", "preferences", "notifications");

    private static final String[] FIRST = {"Anna", "Ivan", "Maria", "Dmitry", "Olga", "Pavel"};
    private static final String[] LAST = {"Petrova", "Sidorov", "Kuznetsova", "Volkov", "Smirnova", "Popov"};

    /** Which session a login makes (property {@code sessionmesh.example.seed}). */
    enum Profile {
        /** The workload's session, with blobs. */
        STANDARD,
        /** clientInfo.client, defaultCurrency.currency and interestRates.rates; nothing else. */
        SMALL
    }

    private SessionSeed() {
    }

    /** The attributes of a new session for a client, by name ({@code section.attribute}), in the order to set them. */
    static Map<String, Object> attributes(String clientId, Profile profile) {
        Map<String, Object> a = new LinkedHashMap<>();
        SplittableRandom random = new SplittableRandom(clientId.hashCode());
        a.put("clientInfo.client", new ClientInfo(clientId, FIRST[random.nextInt(FIRST.length)], LAST[random.nextInt(LAST.length)],
                LocalDate.of(1950 + random.nextInt(55), 1 + random.nextInt(12), 1 + random.nextInt(28)), "MASS"));
        a.put("defaultCurrency.currency", "RUB");
        a.put("interestRates.rates", List.of(
                new Rate("RUB", 3, new BigDecimal("15.50")), new Rate("RUB", 6, new BigDecimal("16.20")),
                new Rate("RUB", 12, new BigDecimal("14.80")), new Rate("USD", 12, new BigDecimal("3.10"))));
        if (profile == Profile.SMALL) {
            return a;
        }
        List<Card> cards = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
            cards.add(new Card("card-" + (100_000 + random.nextInt(900_000)), "4276 38** **** " + (1000 + random.nextInt(9000)),
                    i == 0 ? "RUB" : "USD", BigDecimal.valueOf(random.nextInt(100_000_000), 2),
                    LocalDate.of(2027 + random.nextInt(5), 1 + random.nextInt(12), 1)));
        }
        a.put("cards.list", cards);
        Map<String, BigDecimal> limits = new LinkedHashMap<>();
        limits.put("RUB", new BigDecimal("100000"));
        limits.put("USD", new BigDecimal("1500"));
        a.put("limits.daily", limits);
        for (String section : SECTION_NAMES) {
            boolean typed = a.keySet().stream().anyMatch(k -> k.startsWith(section + "."));
            a.put(section + ".source", section.equals("clientInfo") ? "login-service" : section + "-service");
            a.put(section + ".updatedOn", LocalDate.of(2026, 1 + random.nextInt(12), 1 + random.nextInt(28)));
            a.put(section + ".flags", List.of("seen", random.nextBoolean() ? "promo" : "plain"));
            a.put(section + ".blob", blob(random));
            if (!typed) {
                a.put(section + ".note", "no data from " + section + " yet");
            }
        }
        return a;
    }

    /** An opaque value of the workload's log-normal size (a Box-Muller draw from the client's generator). */
    static byte[] blob(SplittableRandom random) {
        double gaussian = Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
        byte[] b = new byte[ValueSizes.sizeFor(gaussian)];
        random.nextBytes(b);
        return b;
    }
}
