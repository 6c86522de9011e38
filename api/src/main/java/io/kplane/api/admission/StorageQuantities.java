package io.kplane.api.admission;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Just enough of Kubernetes' {@code resource.Quantity} to check and compare storage sizes. */
public final class StorageQuantities {
    private static final Pattern QUANTITY =
            Pattern.compile("([+-]?[0-9.]+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");
    private static final Map<String, BigDecimal> SUFFIX = Map.ofEntries(
            Map.entry("", BigDecimal.ONE), Map.entry("m", new BigDecimal("0.001")),
            Map.entry("k", BigDecimal.TEN.pow(3)), Map.entry("M", BigDecimal.TEN.pow(6)),
            Map.entry("G", BigDecimal.TEN.pow(9)), Map.entry("T", BigDecimal.TEN.pow(12)),
            Map.entry("P", BigDecimal.TEN.pow(15)), Map.entry("E", BigDecimal.TEN.pow(18)),
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)), Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)), Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)), Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

    private StorageQuantities() {}

    /** The value in bytes, or null when {@code s} is not a quantity. */
    public static BigDecimal parse(String s) {
        if (s == null) {
            return null;
        }
        Matcher m = QUANTITY.matcher(s.trim());
        if (!m.matches()) {
            return null;
        }
        try {
            BigDecimal number = new BigDecimal(m.group(1));
            String suffix = m.group(2) == null ? "" : m.group(2);
            if (suffix.startsWith("e") || suffix.startsWith("E")) {
                return number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
            }
            return number.multiply(SUFFIX.get(suffix));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
