package io.kplane.api.admission;

import io.kplane.api.clock.Clock;
import io.kplane.api.clock.ClockAnchors;
import io.kplane.api.clock.ClockSpec;
import io.kplane.api.clock.GoDuration;

/**
 * The cluster Clock's rules, all in one place: one object named {@code cluster}; a known mode; a
 * rate of at least 1 with {@code Rate} only; a time (RFC 3339) for any mode but {@code Real}; an
 * offset (Go duration) with {@code Offset} only and not together with a time. The status is the
 * API server's (computed from the spec at each write), so nothing about it is validated here.
 */
public final class ClockAdmission extends TypedAdmission<Clock> {
    /** One cluster year per wall second is more than any test needs and keeps the arithmetic far from overflow. */
    static final long MAX_RATE = 31_536_000L;

    public ClockAdmission() {
        super(Clock.class, false, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    Clock applyDefaults(Clock clock) {
        ClockSpec spec = clock.spec() == null ? new ClockSpec(null, null, null, null) : clock.spec();
        if (spec.mode() == null || spec.mode().isEmpty()) {
            spec = spec.withMode(ClockSpec.REAL);
        }
        return clock.withSpec(spec);
    }

    @Override
    void validateSpec(Clock clock, FieldErrors errs) {
        if (clock.name() != null && !Clock.CLUSTER.equals(clock.name())) {
            errs.add(FieldError.invalid(
                    "metadata.name", clock.name(), "must be \"" + Clock.CLUSTER + "\": the cluster has one clock"));
        }
        ClockSpec spec = clock.spec();
        String mode = spec.mode();
        if (!ClockSpec.MODES.contains(mode)) {
            errs.add(FieldError.notSupported("spec.mode", mode, ClockSpec.MODES));
            return;
        }
        if (spec.rate() != null && !ClockSpec.RATE.equals(mode)) {
            errs.add(FieldError.forbidden("spec.rate", "may only be set when mode is Rate"));
        } else if (ClockSpec.RATE.equals(mode)) {
            if (spec.rate() == null) {
                errs.add(FieldError.required("spec.rate", "required when mode is Rate"));
            } else if (spec.rate() < 1 || spec.rate() > MAX_RATE) {
                errs.add(FieldError.invalid(
                        "spec.rate",
                        spec.rate(),
                        "must be between 1 and " + MAX_RATE + " (cluster seconds per wall second)"));
            }
        }
        if (spec.time() != null) {
            if (ClockSpec.REAL.equals(mode)) {
                errs.add(FieldError.forbidden("spec.time", "may not be set when mode is Real"));
            } else {
                try {
                    ClockAnchors.parseTime(spec.time());
                } catch (RuntimeException e) {
                    errs.add(FieldError.invalid(
                            "spec.time", spec.time(), "must be an RFC 3339 time, e.g. 2026-10-25T00:00:00Z"));
                }
            }
        }
        if (spec.offset() != null) {
            if (!ClockSpec.OFFSET.equals(mode)) {
                errs.add(FieldError.forbidden("spec.offset", "may only be set when mode is Offset"));
            } else if (spec.time() != null) {
                errs.add(FieldError.forbidden("spec.offset", "may not be set together with spec.time"));
            } else {
                try {
                    GoDuration.parse(spec.offset());
                } catch (RuntimeException e) {
                    errs.add(FieldError.invalid(
                            "spec.offset", spec.offset(), "must be a duration such as 26h, -90m or 1h30m"));
                }
            }
        }
    }
}
