package io.kplane.kubelet.volume;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte counts of resource quantities ({@code 64Mi}, {@code 1G}, {@code 500k}, {@code 1e6}), rounded up. */
final class Quantities {
    private static final Pattern Q =
            Pattern.compile("([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E|m)?");
    private static final Map<String, BigDecimal> UNITS = Map.ofEntries(
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
            Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
            Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
            Map.entry("Ei", BigDecimal.valueOf(1L << 60)),
            Map.entry("k", BigDecimal.valueOf(1_000L)),
            Map.entry("M", BigDecimal.valueOf(1_000_000L)),
            Map.entry("G", BigDecimal.valueOf(1_000_000_000L)),
            Map.entry("T", BigDecimal.valueOf(1_000_000_000_000L)),
            Map.entry("P", BigDecimal.valueOf(1_000_000_000_000_000L)),
            Map.entry("E", BigDecimal.valueOf(1_000_000_000_000_000_000L)),
            Map.entry("m", new BigDecimal("0.001")));

    private Quantities() {}

    static long bytes(String quantity) {
        Matcher m = Q.matcher(quantity == null ? "" : quantity.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("quantities must match the regular expression "
                    + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': \"" + quantity + "\"");
        }
        BigDecimal v = new BigDecimal(m.group(1));
        if (m.group(2) != null) {
            v = v.multiply(UNITS.get(m.group(2)));
        }
        return v.setScale(0, java.math.RoundingMode.CEILING).longValueExact();
    }
}
