package io.kplane.api.clock;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * What the user asks of the cluster clock.
 *
 * @param mode   {@code Real}, {@code Offset}, {@code Frozen} or {@code Rate}
 * @param time   RFC 3339: the cluster time at the moment this spec is written (a jump). Applied when it
 *               changes or the mode changes; without it the cluster time continues from where it was.
 *               Not allowed with {@code Real}.
 * @param offset Go duration ({@code 26h}, {@code -90m}): cluster time = wall time + offset. Only with
 *               {@code Offset}, and not together with {@code time}.
 * @param rate   cluster seconds per wall second, at least 1. Only (and required) with {@code Rate}.
 */
@RecordBuilder
public record ClockSpec(String mode, String time, String offset, Long rate) implements ClockSpecBuilder.With {
    public static final String REAL = "Real";
    public static final String OFFSET = "Offset";
    public static final String FROZEN = "Frozen";
    public static final String RATE = "Rate";
    public static final java.util.List<String> MODES = java.util.List.of(REAL, OFFSET, FROZEN, RATE);
}
