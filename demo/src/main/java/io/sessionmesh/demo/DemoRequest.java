package io.sessionmesh.demo;

/**
 * The end-user requests the demo sends to the example service, with their share of the mix: four reads to one
 * write, each reading one to three sections declared up front (docs/WORKLOAD.md). Login is not in the mix: it
 * runs at the workload's session creation rate.
 */
enum DemoRequest {
    /** The offer page: reads clientInfo, defaultCurrency and interestRates. */
    OFFER("GET", "/deposits/offer", null, 35, 3),
    /** The cards page: reads cards and limits. */
    CARDS("GET", "/cards", null, 30, 2),
    /** The deposits opened: reads deposits. */
    DEPOSITS("GET", "/deposits", null, 15, 1),
    /** A deposit draft: reads three sections, writes one attribute. */
    DRAFT("PUT", "/deposits/draft", "{\"amount\": %d, \"months\": 6}", 10, 3),
    /** A daily limit: reads limits, writes two attributes. */
    LIMIT("PUT", "/cards/limit", "{\"currency\": \"RUB\", \"amount\": %d}", 10, 1),
    /** A login: creates a session with the workload's 12 sections of 5 attributes. */
    LOGIN("POST", "/deposits/login/", null, 0, 0);

    final String method;
    final String path;
    /** The JSON body with one %d for an amount, or null. */
    final String body;
    /** Share of the mix, in percent. */
    final int weight;
    /** Sections the request declares. */
    final int sections;

    DemoRequest(String method, String path, String body, int weight, int sections) {
        this.method = method;
        this.path = path;
        this.body = body;
        this.weight = weight;
        this.sections = sections;
    }

    /** Whether the request writes to the session. */
    boolean writes() {
        return body != null || this == LOGIN;
    }

    /** A request of the mix, for a uniform draw in 0..99. */
    static DemoRequest pick(int percent) {
        int acc = 0;
        for (DemoRequest r : values()) {
            acc += r.weight;
            if (percent < acc) {
                return r;
            }
        }
        return OFFER;
    }
}
