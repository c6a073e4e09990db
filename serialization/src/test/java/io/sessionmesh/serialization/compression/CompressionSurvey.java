package io.sessionmesh.serialization.compression;
import one.nio.serial.Serializer;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.*;

/**
 * A quick survey of the compression options on one-nio-serialized client records of growing size: framed
 * bytes and the best of five timing rounds of compress + decompress. It chose the defaults of
 * {@link CompressionOptions}; see serialization/COMPRESSION.md for the command and the figures. The
 * JMH benchmarks in benchmarks/ measure the same properly.
 */
public final class CompressionSurvey {
    enum Status { ACTIVE, BLOCKED, CLOSED }
    static final class Card implements Serializable { String id; String pan; BigDecimal balance; String currency; LocalDate expiry; Status status;
        Card(Random r, int i) { id = "card-" + (100000 + r.nextInt(900000)); pan = "4276 38** **** " + (1000 + r.nextInt(9000)); balance = BigDecimal.valueOf(r.nextInt(10_000_000), 2); currency = new String[]{"RUB","USD","EUR"}[r.nextInt(3)]; expiry = LocalDate.of(2026 + r.nextInt(5), 1 + r.nextInt(12), 1); status = Status.values()[r.nextInt(3)]; } }
    static final class Client implements Serializable { String first, last, middle; LocalDate born; String passport; List<String> phones; List<Card> cards = new ArrayList<>(); Map<String, BigDecimal> rates = new LinkedHashMap<>();
        Client(Random r, int cards, int rates) { first = "Ivan"; last = "Petrov" + r.nextInt(100); middle = "Sergeevich"; born = LocalDate.of(1960 + r.nextInt(40), 1 + r.nextInt(12), 1 + r.nextInt(28)); passport = "45 0" + r.nextInt(10) + " " + (100000 + r.nextInt(900000)); phones = List.of("+7 916 " + (1000000 + r.nextInt(9000000)));
            for (int i = 0; i < cards; i++) this.cards.add(new Card(r, i)); for (int i = 0; i < rates; i++) this.rates.put("CUR" + i, BigDecimal.valueOf(r.nextInt(1_000_000), 4)); } }
    public static void main(String[] a) throws Exception {
        Object[][] opts = {{CompressionCodec.DEFLATE, 1}, {CompressionCodec.DEFLATE, 6}, {CompressionCodec.DEFLATE, 9}, {CompressionCodec.LZ4, 0}, {CompressionCodec.ZSTD, 1}, {CompressionCodec.ZSTD, 3}};
        int[][] shapes = {{0, 0}, {1, 2}, {4, 8}, {40, 60}, {300, 500}};
        System.out.println("| raw bytes | codec | level | framed bytes | ratio | compress+decompress ns |");
        System.out.println("|---|---|---|---|---|---|");
        for (int[] s : shapes) {
            byte[] raw = Serializer.serialize(new Client(new Random(7), s[0], s[1]));
            for (Object[] o : opts) {
                ValueCompressor c = new ValueCompressor(CompressionOptions.builder().codec((CompressionCodec) o[0]).level((Integer) o[1]).thresholdBytes(0).minSavingPercent(0).build());
                byte[] f = c.encode(raw);
                int iters = Math.max(200, 20_000_000 / Math.max(raw.length, 64));
                long best = Long.MAX_VALUE;
                for (int round = 0; round < 5; round++) {
                    long t = System.nanoTime(); long sink = 0;
                    for (int i = 0; i < iters; i++) { byte[] x = c.encode(raw); sink += c.decode(x).length; }
                    best = Math.min(best, (System.nanoTime() - t) / iters);
                    if (sink == 42) System.out.print("");
                }
                System.out.printf("| %d | %s | %d | %d | %.2f | %d |%n", raw.length, o[0], o[1], f.length, f.length / (double) raw.length, best);
            }
        }
    }
}
