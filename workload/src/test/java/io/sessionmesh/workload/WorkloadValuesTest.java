package io.sessionmesh.workload;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generator with Java serialization as its size (the benchmarks use one-nio's; the library knows neither). */
class WorkloadValuesTest {
    static final WorkloadValues VALUES = new WorkloadValues(WorkloadValuesTest::javaSize);

    @Test
    void clientOfSize_growsToTheTarget_andNoFurtherThanOnePart() {
        for (int target : new int[] {1_000, 2_000, 8 * 1024, 64 * 1024}) {
            ClientRecord client = VALUES.clientOfSize(target);
            int size = javaSize(client);
            assertTrue(size >= target, target + ": " + size);
            assertTrue(size < target + 1_200, target + ": " + size);
        }
        ClientRecord big = VALUES.clientOfSize(64 * 1024);
        assertTrue(big.cards.size() > 10 && big.deposits.size() > 10 && big.rates.size() > 10 && big.offers.size() > 10);
    }

    @Test
    void clientOfSize_smallTarget_bareRecord() {
        ClientRecord bare = VALUES.clientOfSize(WorkloadValues.BARE_CLIENT_BYTES);
        assertNotNull(bare.clientId);
        assertNotNull(bare.lastName);
        assertNull(bare.cards);
    }

    @Test
    void values_sameSeed_equalValues() {
        for (WorkloadValues.Kind kind : WorkloadValues.Kind.values()) {
            Object a = VALUES.of(kind);
            Object b = new WorkloadValues(WorkloadValuesTest::javaSize).of(kind);
            if (a instanceof ClientRecord) {
                assertEquals(a, b, kind.name());
            } else {
                Map<?, ?> blobsA = (Map<?, ?>) a;
                Map<?, ?> blobsB = (Map<?, ?>) b;
                assertEquals(WorkloadValues.BLOBS, blobsA.size());
                for (Object key : blobsA.keySet()) {
                    assertArrayEquals((byte[]) blobsA.get(key), (byte[]) blobsB.get(key));
                }
            }
        }
    }

    @Test
    void values_areSerializable_roundTripEqual() throws Exception {
        ClientRecord client = VALUES.clientOfSize(8 * 1024);
        Object back = new ObjectInputStream(new ByteArrayInputStream(javaBytes(client))).readObject();
        assertEquals(client, back);
        assertInstanceOf(CardStatus.class, client.cards.get(0).status);
    }

    @Test
    void pool_sameSeed_sameValues_blobsOneInFive() {
        ValuePool a = new ValuePool(42, new SplittableRandom(42), WorkloadValuesTest::javaSize);
        ValuePool b = new ValuePool(42, new SplittableRandom(42), WorkloadValuesTest::javaSize);
        List<Object> va = a.values();
        List<Object> vb = b.values();
        assertEquals(ValuePool.POOL, va.size());
        for (int i = 0; i < va.size(); i++) {
            if (i % ValuePool.BLOB_EVERY == ValuePool.BLOB_EVERY - 1) {
                assertArrayEquals((byte[]) va.get(i), (byte[]) vb.get(i), "value " + i);
            } else {
                assertEquals(va.get(i), vb.get(i), "value " + i);
            }
        }
        SplittableRandom r = new SplittableRandom(1);
        assertTrue(va.contains(a.next(r)));
    }

    @Test
    void bucket_logSpaced_endsKept() {
        assertEquals(ValueSizes.MIN_BYTES, ValuePool.bucket(ValueSizes.MIN_BYTES));
        assertEquals(ValueSizes.MAX_BYTES, ValuePool.bucket(ValueSizes.MAX_BYTES));
        assertEquals(ValuePool.SIZE_BUCKETS, java.util.stream.IntStream.rangeClosed(ValueSizes.MIN_BYTES, ValueSizes.MAX_BYTES)
                .map(ValuePool::bucket).distinct().count());
    }

    static int javaSize(Object value) {
        return javaBytes(value).length;
    }

    static byte[] javaBytes(Object value) {
        try (ByteArrayOutputStream bytes = new ByteArrayOutputStream(); ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
