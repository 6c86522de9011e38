package io.kplane.controllers.runtime;

import io.kplane.api.util.GoDuration;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Picocli adapter for {@link GoDuration}: flags take Go durations as Kubernetes' do ({@code 1m30s}). */
public final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        try {
            return GoDuration.parseNonNegative(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
