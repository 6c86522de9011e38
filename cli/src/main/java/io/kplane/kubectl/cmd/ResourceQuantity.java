package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Kubernetes resource quantities ({@code 100m}, {@code 1.5}, {@code 128Mi}, {@code 1G}) for describe's
 * resource sums: parsed to an exact value, added, and printed back in the canonical form kubectl's
 * {@code Quantity.String()} gives (millis only when needed, the largest suffix that keeps an integer,
 * binary suffixes when the inputs used them).
 */
record ResourceQuantity(BigDecimal value, boolean binary) {
    static final ResourceQuantity ZERO = new ResourceQuantity(BigDecimal.ZERO, false);
    private static final String[] BINARY = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final String[] DECIMAL = {"", "k", "M", "G", "T", "P", "E"};

    static ResourceQuantity parse(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return ZERO;
        }
        String s = node.asText().trim();
        if (s.isEmpty()) {
            return ZERO;
        }
        for (int i = BINARY.length - 1; i > 0; i--) {
            if (s.endsWith(BINARY[i])) {
                return new ResourceQuantity(
                        new BigDecimal(s.substring(0, s.length() - 2))
                                .multiply(BigDecimal.valueOf(1024).pow(i)),
                        true);
            }
        }
        if (s.endsWith("m")) {
            return new ResourceQuantity(new BigDecimal(s.substring(0, s.length() - 1)).movePointLeft(3), false);
        }
        for (int i = DECIMAL.length - 1; i > 0; i--) {
            if (s.endsWith(DECIMAL[i])) {
                return new ResourceQuantity(
                        new BigDecimal(s.substring(0, s.length() - 1)).movePointRight(3 * i), false);
            }
        }
        try {
            return new ResourceQuantity(new BigDecimal(s), false);
        } catch (NumberFormatException e) {
            return ZERO;
        }
    }

    ResourceQuantity plus(ResourceQuantity other) {
        return new ResourceQuantity(value.add(other.value), value.signum() == 0 ? other.binary : binary);
    }

    ResourceQuantity max(ResourceQuantity other) {
        return value.compareTo(other.value) >= 0 ? this : other;
    }

    /** {@code int64(this / of * 100)} as kubectl computes it; 0 when {@code of} is zero. */
    long percentOf(ResourceQuantity of) {
        if (of.value.signum() == 0) {
            return 0;
        }
        return (long) (value.doubleValue() / of.value.doubleValue() * 100);
    }

    @Override
    public String toString() {
        if (value.signum() == 0) {
            return "0";
        }
        if (value.stripTrailingZeros().scale() > 0) {
            BigDecimal millis = value.movePointRight(3).setScale(0, java.math.RoundingMode.CEILING);
            return millis.toPlainString() + "m";
        }
        BigInteger n = value.toBigIntegerExact();
        String[] suffixes = binary ? BINARY : DECIMAL;
        BigInteger base = BigInteger.valueOf(binary ? 1024 : 1000);
        int i = 0;
        while (i < suffixes.length - 1 && n.mod(base).signum() == 0 && n.signum() != 0) {
            n = n.divide(base);
            i++;
        }
        return n + suffixes[i];
    }
}
