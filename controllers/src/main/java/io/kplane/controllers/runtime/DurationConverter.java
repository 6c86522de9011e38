package io.kplane.controllers.runtime;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses Go-style durations as Kubernetes flags take them: {@code 500ms}, {@code 15s}, {@code 2m}, {@code 1h}. */
public final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern FORM = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        Matcher m = FORM.matcher(value.trim());
        if (!m.matches()) {
            throw new TypeConversionException("invalid duration '" + value + "' (use e.g. 500ms, 15s, 2m, 1h)");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }
}
