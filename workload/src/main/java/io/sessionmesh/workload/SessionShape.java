package io.sessionmesh.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * How many sections a session has and how many attributes each holds (docs/WORKLOAD.md). Section names are shared
 * across sessions: a session of n sections has the first n of {@link #SECTION_NAMES}; attributes are named
 * {@link #attribute(int) a0, a1, ...}.
 *
 * <table>
 *   <caption>Shapes</caption>
 *   <tr><th>shape</th><th>sections</th><th>attributes a section</th></tr>
 *   <tr><td>{@link #UNIFORM}</td><td>{@value #SECTIONS}</td><td>{@value #ATTRIBUTES}</td></tr>
 *   <tr><td>{@link #VARIED}</td><td>uniform {@value #MIN_SECTIONS}..{@value #MAX_SECTIONS}</td>
 *       <td>uniform {@value #MIN_ATTRIBUTES}..{@value #MAX_ATTRIBUTES}</td></tr>
 * </table>
 */
public enum SessionShape {
    /** Every session: {@value #SECTIONS} sections of {@value #ATTRIBUTES} attributes. Draws nothing at random. */
    UNIFORM,
    /** Sections uniform {@value #MIN_SECTIONS}..{@value #MAX_SECTIONS}, attributes uniform {@value #MIN_ATTRIBUTES}..{@value #MAX_ATTRIBUTES}. */
    VARIED;

    /** Sections of a session in the uniform shape. */
    public static final int SECTIONS = 12;
    /** Attributes of a section in the uniform shape. */
    public static final int ATTRIBUTES = 5;
    /** Fewest sections of a session in the varied shape. */
    public static final int MIN_SECTIONS = 5;
    /** Most sections of a session in the varied shape: as many as there are names. */
    public static final int MAX_SECTIONS = 30;
    /** Fewest attributes of a section in the varied shape. */
    public static final int MIN_ATTRIBUTES = 1;
    /** Most attributes of a section in the varied shape. */
    public static final int MAX_ATTRIBUTES = 10;

    /** Section names, shared by every session; the first {@value #SECTIONS} are those of the uniform shape. */
    public static final List<String> SECTION_NAMES = List.of("clientInfo", "defaultCurrency", "interestRates", "cards",
            "deposits", "limits", "offers", "documents", "accounts", "notifications", "preferences", "riskScore",
            "loans", "mortgages", "insurance", "investments", "transfers", "payees", "cashback", "devices", "consents",
            "addresses", "contacts", "taxInfo", "pensions", "tariffs", "chatHistory", "securityQuestions", "bonuses",
            "audit");

    /** The {@value #SECTIONS} section names of the uniform shape, in order. */
    public static List<String> uniformSectionNames() {
        return SECTION_NAMES.subList(0, SECTIONS);
    }

    /** The name of attribute {@code i} of a section. */
    public static String attribute(int i) {
        return "a" + i;
    }

    /** The shape of a flag's value: {@code uniform} or {@code varied}. */
    public static SessionShape of(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    /** The flag value of this shape. */
    public String flag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * A new session's sections, in order, each with its number of attributes. The uniform shape draws nothing from
     * {@code random}; the varied one draws the section count, then each section's attribute count.
     */
    public Map<String, Integer> draw(RandomGenerator random) {
        Map<String, Integer> sections = new LinkedHashMap<>();
        if (this == UNIFORM) {
            for (String name : uniformSectionNames()) {
                sections.put(name, ATTRIBUTES);
            }
            return sections;
        }
        int n = MIN_SECTIONS + random.nextInt(MAX_SECTIONS - MIN_SECTIONS + 1);
        for (String name : SECTION_NAMES.subList(0, n)) {
            sections.put(name, MIN_ATTRIBUTES + random.nextInt(MAX_ATTRIBUTES - MIN_ATTRIBUTES + 1));
        }
        return sections;
    }
}
