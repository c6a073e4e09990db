package io.sessionmesh.serialization;

import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.serialization.attribute.InMemorySchemaRegistry;
import io.sessionmesh.serialization.compression.CompressionCodec;
import io.sessionmesh.serialization.compression.CompressionOptions;
import io.sessionmesh.serialization.transport.BinaryTransportCodec;
import io.sessionmesh.serialization.transport.JsonTransportCodec;
import io.sessionmesh.serialization.transport.ReadResult;
import io.sessionmesh.serialization.transport.SectionData;

import com.google.common.collect.ImmutableList;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the serialization module does, on one client record: the demo that {@code ./demo.sh} runs until
 * the whole stack (master, sidecar, client) has its own. Prints sizes, the schema exchange between two
 * codecs that share only a registry, and the two transport forms of a section.
 */
public final class SerializationDemo {
    /** A card, as a bank's service keeps it in the session. */
    record Card(String id, String maskedPan, BigDecimal balance, String currency, LocalDate expiry) implements Serializable {
    }

    /** A client record with its cards. */
    record Client(String firstName, String lastName, LocalDate born, ImmutableList<Card> cards) implements Serializable {
    }

    private SerializationDemo() {
    }

    public static void main(String[] args) {
        ImmutableList.Builder<Card> cards = ImmutableList.builder();
        for (int i = 0; i < 12; i++) {
            cards.add(new Card("card-" + (100200 + i), "4276 38** **** " + (1000 + i * 7), new BigDecimal("1234.5" + i),
                    i % 3 == 0 ? "USD" : "RUB", LocalDate.of(2027 + i % 4, 1 + i, 1)));
        }
        Client client = new Client("Ivan", "Petrov", LocalDate.of(1985, 4, 12), cards.build());

        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        AttributeCodec writer = AttributeCodec.builder().schemaRegistry(registry).build();
        System.out.println("SessionMesh serialization demo (one-nio " + writer + ")");
        System.out.println();
        System.out.println("A client record with 12 cards, one attribute value:");
        for (CompressionCodec codec : CompressionCodec.values()) {
            AttributeCodec c = AttributeCodec.builder().schemaRegistry(registry)
                    .compression(CompressionOptions.builder().codec(codec).build()).build();
            System.out.printf("  %-8s %5d bytes%n", codec, c.encode(client).length);
        }
        byte[] value = writer.encode(client);
        System.out.printf("  schemas published to the registry: %d%n", registry.size());

        AttributeCodec reader = AttributeCodec.builder().schemaRegistry(registry)
                .classFilter(ClassFilter.allowing("io.sessionmesh.serialization.")).build();
        Client back = reader.decode(value, Client.class);
        System.out.printf("  decoded (class filter on): %s %s, %d cards, cards list is %s, equal: %s%n",
                back.firstName(), back.lastName(), back.cards().size(), back.cards().getClass().getSimpleName(),
                back.equals(client));

        Map<String, byte[]> attributes = new LinkedHashMap<>();
        attributes.put("client", value);
        attributes.put("currency", writer.encode("RUB"));
        attributes.put("limit", writer.encode(new BigDecimal("50000.00")));
        ReadResult section = new ReadResult("demo-session", List.of(new SectionData("clientInfo", 7, attributes)));
        System.out.println();
        System.out.println("The section holding it, as the sidecar sends it:");
        System.out.printf("  binary form %5d bytes%n", new BinaryTransportCodec().encode(section).length);
        System.out.printf("  JSON form   %5d bytes (values in base64)%n", new JsonTransportCodec().encode(section).length);
    }
}
