package io.sessionmesh.example;

import io.sessionmesh.client.Section;
import io.sessionmesh.client.Session;
import io.sessionmesh.example.Model.Card;
import io.sessionmesh.example.Model.ClientInfo;
import io.sessionmesh.example.Model.Rate;
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
 * What a login service leaves in a new session, shaped like docs/WORKLOAD.md: {@value #SECTIONS} sections of
 * {@value #ATTRIBUTES_PER_SECTION} attributes each. The sections this service reads hold typed values (a client
 * record, a currency, rates, cards, limits); every section also carries what other services keep there: a source,
 * a date, flags and an opaque byte[] of the workload's log-normal size ({@link ValueSizes}: median 200 B, p99 about
 * 8 KB, at most 64 KB). Seeded by the client id, so a client's session is the same every login.
 *
 * <p>The {@linkplain Profile#SMALL small} profile writes only what this service's deposit pages read (the client, the
 * currency, the rates): for comparing stores on the cost per request rather than on the session's size.
 */
final class SessionSeed {
    /** Which session a login makes (property {@code sessionmesh.example.seed}). */
    enum Profile {
        /** The workload's session: {@value SessionSeed#SECTIONS} sections of {@value SessionSeed#ATTRIBUTES_PER_SECTION} attributes, with blobs. */
        STANDARD,
        /** Only clientInfo.client, defaultCurrency.currency and interestRates.rates; no other section, no filler. */
        SMALL
    }

    /** Sections per session, as in the workload. */
    static final int SECTIONS = SessionShape.SECTIONS;
    /** Attributes per section, as in the workload. */
    static final int ATTRIBUTES_PER_SECTION = SessionShape.ATTRIBUTES;

    /** The section names, shared by every session; the first five are the ones this service reads. */
    static final List<String> SECTION_NAMES = List.of("clientInfo", "defaultCurrency", "interestRates", "cards", "limits",
            "deposits", "offers", "accounts", "loans", "documents", "preferences", "notifications");

    private static final String[] FIRST = {"Anna", "Ivan", "Maria", "Dmitry", "Olga", "Pavel"};
    private static final String[] LAST = {"Petrova", "Sidorov", "Kuznetsova", "Volkov", "Smirnova", "Popov"};

    private SessionSeed() {
    }

    /** Fills a new session for a client as {@code profile} says. */
    static void fill(Session s, String clientId, Profile profile) {
        if (profile == Profile.SMALL) {
            fillSmall(s, clientId);
        } else {
            fill(s, clientId);
        }
    }

    /** Fills a new session for a client: the standard profile. */
    static void fill(Session s, String clientId) {
        SplittableRandom random = fillSmall(s, clientId);
        List<Card> cards = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
            cards.add(new Card("card-" + (100_000 + random.nextInt(900_000)), "4276 38** **** " + (1000 + random.nextInt(9000)),
                    i == 0 ? "RUB" : "USD", BigDecimal.valueOf(random.nextInt(100_000_000), 2),
                    LocalDate.of(2027 + random.nextInt(5), 1 + random.nextInt(12), 1)));
        }
        s.section("cards").setAttribute("list", cards);
        Map<String, BigDecimal> limits = new LinkedHashMap<>();
        limits.put("RUB", new BigDecimal("100000"));
        limits.put("USD", new BigDecimal("1500"));
        s.section("limits").setAttribute("daily", limits);
        for (String section : SECTION_NAMES) {
            Section sec = s.section(section);
            int typed = sec.attributeNames().size();
            sec.setAttribute("source", section.equals("clientInfo") ? "login-service" : section + "-service");
            sec.setAttribute("updatedOn", LocalDate.of(2026, 1 + random.nextInt(12), 1 + random.nextInt(28)));
            sec.setAttribute("flags", List.of("seen", random.nextBoolean() ? "promo" : "plain"));
            sec.setAttribute("blob", blob(random));
            if (typed == 0) {
                sec.setAttribute("note", "no data from " + section + " yet");
            }
        }
    }

    /** Writes the three attributes the deposit pages read; answers the client's generator, for what follows. */
    private static SplittableRandom fillSmall(Session s, String clientId) {
        SplittableRandom random = new SplittableRandom(clientId.hashCode());
        ClientInfo client = new ClientInfo(clientId, FIRST[random.nextInt(FIRST.length)], LAST[random.nextInt(LAST.length)],
                LocalDate.of(1950 + random.nextInt(55), 1 + random.nextInt(12), 1 + random.nextInt(28)), "MASS");
        s.section("clientInfo").setAttribute("client", client);
        s.section("defaultCurrency").setAttribute("currency", "RUB");
        s.section("interestRates").setAttribute("rates", List.of(
                new Rate("RUB", 3, new BigDecimal("15.50")), new Rate("RUB", 6, new BigDecimal("16.20")),
                new Rate("RUB", 12, new BigDecimal("14.80")), new Rate("USD", 12, new BigDecimal("3.10"))));
        return random;
    }

    /** An opaque value of the workload's log-normal size (a Box-Muller draw from the client's generator). */
    static byte[] blob(SplittableRandom random) {
        double gaussian = Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
        byte[] b = new byte[ValueSizes.sizeFor(gaussian)];
        random.nextBytes(b);
        return b;
    }
}
