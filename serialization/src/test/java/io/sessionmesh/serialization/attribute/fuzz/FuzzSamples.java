package io.sessionmesh.serialization.attribute.fuzz;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The classes the serialization fuzz tests allow (their ClassFilter allows this package and the JDK building blocks
 * only), and values of them for the seeds.
 */
public final class FuzzSamples {
    /** The package the fuzz tests' ClassFilter allows. */
    public static final String PACKAGE = FuzzSamples.class.getPackageName();

    private FuzzSamples() {
    }

    /** A line of a cart. */
    public static final class Item implements Serializable {
        private static final long serialVersionUID = 1L;
        String sku;
        int quantity;
        long[] prices;
        Double discount;

        public Item(String sku, int quantity, long[] prices, Double discount) {
            this.sku = sku;
            this.quantity = quantity;
            this.prices = prices;
            this.discount = discount;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Item i && Objects.equals(i.sku, sku) && i.quantity == quantity
                    && java.util.Arrays.equals(i.prices, prices) && Objects.equals(i.discount, discount);
        }

        @Override
        public int hashCode() {
            return Objects.hash(sku, quantity);
        }
    }

    /** Nested objects, collections and a back reference. */
    public static final class Cart implements Serializable {
        private static final long serialVersionUID = 1L;
        String owner;
        List<Item> items = new ArrayList<>();
        Map<String, Object> notes = new LinkedHashMap<>();
        Cart parent;
        boolean closed;
        char mark;

        @Override
        public boolean equals(Object o) {
            return o instanceof Cart c && Objects.equals(c.owner, owner) && Objects.equals(c.items, items)
                    && Objects.equals(c.notes, notes) && c.closed == closed && c.mark == mark && (c.parent == null) == (parent == null);
        }

        @Override
        public int hashCode() {
            return Objects.hash(owner, items);
        }
    }

    /** One value of each sample class, and some JDK values. */
    public static List<Object> values() {
        Cart cart = new Cart();
        cart.owner = "alice";
        cart.items.add(new Item("A-1", 2, new long[] {1999, 2499}, 0.1));
        cart.items.add(new Item("B-22", 1, new long[0], null));
        cart.notes.put("gift", Boolean.TRUE);
        cart.notes.put("count", 3L);
        cart.mark = 'x';
        Cart child = new Cart();
        child.owner = "bob";
        child.parent = cart;
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            big.append("compressible text ").append(i % 7).append(' ');
        }
        return List.of(cart, child, new Item("C", 0, null, -1.5), "plain string", 42L, List.of(1, 2, 3),
                Map.of("k", "v"), big.toString());
    }
}
