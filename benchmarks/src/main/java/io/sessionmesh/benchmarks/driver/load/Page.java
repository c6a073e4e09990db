package io.sessionmesh.benchmarks.driver.load;

import io.netty.handler.codec.http.HttpMethod;

import java.util.Locale;

/**
 * The end-user requests of the mix (and the demo) on the example apps' pages, with their share of the mix: four reads
 * to one write, each reading one to three sections declared up front (docs/WORKLOAD.md). Two mixes: every page (the
 * example service's deposit and cards pages), and the deposit pages alone, the only ones the Spring Session apps
 * have. Login is in neither: it runs at the workload's session creation rate.
 */
public enum Page {
    /** The offer page: reads clientInfo, defaultCurrency and interestRates. */
    OFFER(HttpMethod.GET, "/deposits/offer", null, 35, 55, 3),
    /** The cards page: reads cards and limits. */
    CARDS(HttpMethod.GET, "/cards", null, 30, 0, 2),
    /** The deposits opened: reads deposits. */
    DEPOSITS(HttpMethod.GET, "/deposits", null, 15, 25, 1),
    /** A deposit draft: reads three sections, writes one attribute. */
    DRAFT(HttpMethod.PUT, "/deposits/draft", "{\"amount\": %d, \"months\": 6}", 10, 20, 3),
    /** A daily limit: reads limits, writes two attributes. */
    LIMIT(HttpMethod.PUT, "/cards/limit", "{\"currency\": \"RUB\", \"amount\": %d}", 10, 0, 1),
    /** A login: creates a session seeded with the workload's 12 sections of 5 attributes. */
    LOGIN(HttpMethod.POST, "/deposits/login/", null, 0, 0, 0);

    public final HttpMethod method;
    public final String path;
    /** The JSON body with one %d for an amount, or null. */
    final String body;
    /** Share of the mix of every page, in percent. */
    final int weight;
    /** Share of the mix of the deposit pages alone, in percent. */
    final int depositWeight;
    /** Sections the request declares. */
    final int sections;

    Page(HttpMethod method, String path, String body, int weight, int depositWeight, int sections) {
        this.method = method;
        this.path = path;
        this.body = body;
        this.weight = weight;
        this.depositWeight = depositWeight;
        this.sections = sections;
    }

    /** The kind its latency and errors are counted under: the name in lower case. */
    public String kind() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the request writes to the session. */
    boolean writes() {
        return body != null || this == LOGIN;
    }

    /** Its share of the mix, in percent: of every page's, or of the deposit pages'. */
    int weight(boolean depositsOnly) {
        return depositsOnly ? depositWeight : weight;
    }

    /** A request of the mix, for a uniform draw in 0..99. */
    static Page pick(int percent, boolean depositsOnly) {
        int acc = 0;
        for (Page p : values()) {
            acc += p.weight(depositsOnly);
            if (percent < acc) {
                return p;
            }
        }
        return OFFER;
    }
}
