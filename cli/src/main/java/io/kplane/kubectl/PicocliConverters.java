package io.kplane.kubectl;

import java.util.regex.Pattern;

/**
 * Which of picocli's built-in type converters kubectl-lite lets it register. Every {@code CommandLine}
 * registers converters for {@code java.sql} and {@code java.time} types by reflection ({@code Class.forName}
 * and a method lookup per type), which loads and initialises about 80 JDK classes — {@code
 * DateTimeFormatter}'s static formatters and the locale data they read among them — in every run,
 * although no kubectl-lite option has such a type (durations are kubectl's strings, {@code 30s}, parsed by
 * the commands). picocli's documented system property {@code picocli.converters.excludes} turns them off;
 * {@code StartupTest} fails if an option of an excluded type is ever added.
 */
final class PicocliConverters {
    static final String PROPERTY = "picocli.converters.excludes";

    /** picocli matches each class name against these comma-separated regular expressions. */
    static final String EXCLUDED = "java\\.sql\\..*,java\\.time\\..*";

    private PicocliConverters() {}

    /** Sets the exclusions unless the user's own {@code -Dpicocli.converters.excludes} says otherwise. */
    static void excludeUnused() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, EXCLUDED);
        }
    }

    /** Whether picocli would find no converter for {@code type} under these exclusions. */
    static boolean excluded(Class<?> type) {
        for (String regex : EXCLUDED.split(",")) {
            if (Pattern.matches(regex, type.getName())) {
                return true;
            }
        }
        return false;
    }
}
