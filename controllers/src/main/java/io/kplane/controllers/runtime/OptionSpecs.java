package io.kplane.controllers.runtime;

import java.time.Duration;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Builders for the controller processes' options, for command models built in code: picocli's
 * annotation model read every {@code @Option} by reflection and spun an annotation proxy class per
 * annotation type at each start (~17 % of a light controller's main thread before its first request;
 * docs/performance.md, "Start-up CPU per component"). Each option states its parameter label as the
 * annotation model derived it from the field's name, so the usage text is the same as before
 * ({@code ComponentHelpTest} pins it).
 */
public final class OptionSpecs {
    private OptionSpecs() {}

    /** A single-valued option; {@code defaultValue} null for none. */
    public static OptionSpec of(
            String name, Class<?> type, String defaultValue, String paramLabel, String description) {
        OptionSpec.Builder b = OptionSpec.builder(name)
                .type(type)
                .paramLabel("<" + paramLabel + ">")
                .description(description);
        if (defaultValue != null) {
            b.defaultValue(defaultValue);
        }
        return b.build();
    }

    /** A Go-style duration ({@code 1m30s}), as Kubernetes' flags take them ({@link DurationConverter}). */
    public static OptionSpec duration(String name, String defaultValue, String paramLabel, String description) {
        return OptionSpec.builder(name)
                .type(Duration.class)
                .converters(new DurationConverter())
                .defaultValue(defaultValue)
                .paramLabel("<" + paramLabel + ">")
                .description(description)
                .build();
    }

    /** A switch that also takes {@code =true}/{@code =false}, on by default. */
    public static OptionSpec switchOnByDefault(String name, String paramLabel, String description) {
        return OptionSpec.builder(name)
                .type(boolean.class)
                .arity("0..1")
                .defaultValue("true")
                .fallbackValue("true")
                .paramLabel("<" + paramLabel + ">")
                .description(description)
                .build();
    }

    /** picocli's {@code mixinStandardHelpOptions}: {@code -h/--help} and {@code -V/--version}. */
    static OptionSpec help() {
        return OptionSpec.builder("-h", "--help")
                .usageHelp(true)
                .type(boolean.class)
                .description("Show this help message and exit.")
                .build();
    }

    static OptionSpec version() {
        return OptionSpec.builder("-V", "--version")
                .versionHelp(true)
                .type(boolean.class)
                .description("Print version information and exit.")
                .build();
    }
}
