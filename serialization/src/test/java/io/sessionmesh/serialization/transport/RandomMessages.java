package io.sessionmesh.serialization.transport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Seeded random messages of every type: empty maps, unicode names, empty and large values. */
final class RandomMessages {
    private static final String[] NAME_PARTS = {"clientInfo", "defaultCurrency", "interestRates", "cards", "ключ",
        "名前", "a", "x-y_z", "emoji😀", "offers", "limits"};
    private static final String ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

    private final Random random;

    RandomMessages(long seed) {
        this.random = new Random(seed);
    }

    Object any() {
        switch (random.nextInt(5)) {
            case 0:
                return new ReadRequest(id(), names(random.nextInt(6)));
            case 1:
                return readResult();
            case 2:
                return writeRequest();
            case 3:
                Map<String, Long> versions = new LinkedHashMap<>();
                for (String name : names(random.nextInt(5))) {
                    versions.put(name, version());
                }
                return new WriteResult(id(), versions);
            default:
                return new ErrorMessage(1 + random.nextInt(8), random.nextBoolean() ? "" : "failed: " + name());
        }
    }

    ReadResult readResult() {
        List<SectionData> sections = new ArrayList<>();
        for (String name : names(random.nextInt(5))) {
            sections.add(new SectionData(name, version(), values(random.nextInt(6))));
        }
        return new ReadResult(id(), sections);
    }

    WriteRequest writeRequest() {
        List<SectionDelta> deltas = new ArrayList<>();
        for (String name : names(random.nextInt(4))) {
            Map<String, byte[]> set = values(random.nextInt(5));
            List<String> remove = new ArrayList<>();
            for (String r : names(random.nextInt(3))) {
                if (!set.containsKey(r)) {
                    remove.add(r);
                }
            }
            deltas.add(new SectionDelta(name, random.nextBoolean() ? SectionDelta.NO_VERSION : version(), set, remove));
        }
        return new WriteRequest(id(), deltas);
    }

    private long version() {
        switch (random.nextInt(3)) {
            case 0:
                return 0;
            case 1:
                return random.nextInt(1000);
            default:
                return random.nextLong() & Long.MAX_VALUE;
        }
    }

    private Map<String, byte[]> values(int n) {
        Map<String, byte[]> values = new LinkedHashMap<>();
        for (String name : names(n)) {
            int size = random.nextInt(10) == 0 ? random.nextInt(70_000) : random.nextInt(300);
            byte[] value = new byte[size];
            random.nextBytes(value);
            values.put(name, value);
        }
        return values;
    }

    private List<String> names(int n) {
        List<String> names = new ArrayList<>();
        while (names.size() < n) {
            String name = name();
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    private String name() {
        return NAME_PARTS[random.nextInt(NAME_PARTS.length)] + (random.nextBoolean() ? "" : random.nextInt(100));
    }

    String id() {
        StringBuilder sb = new StringBuilder();
        int len = 1 + random.nextInt(43);
        for (int i = 0; i < len; i++) {
            sb.append(ID_CHARS.charAt(random.nextInt(ID_CHARS.length())));
        }
        return sb.toString();
    }
}
