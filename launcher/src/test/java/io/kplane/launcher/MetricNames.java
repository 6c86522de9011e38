package io.kplane.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The metric names a component's {@code /metrics} serves, compared with the checked-in list
 * {@code src/test/resources/metrics/<component>.txt}: every name listed must be scraped, and nothing
 * unlisted may be, so renaming a metric (or adding one without listing it) fails the build. A line
 * {@code ? name} lists a name that may be absent (it only appears once something happened, e.g. a watch
 * restart). Names come from the {@code # TYPE} lines; Micrometer's {@code _max} gauges are left out (they
 * shadow every timer and summary). Each scrape is also written to {@code target/metric-names/} so a
 * deliberate change is one copy away.
 */
record MetricNames(Set<String> required, Set<String> optional) {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static MetricNames checkedIn(String component) throws IOException {
        Set<String> required = new TreeSet<>();
        Set<String> optional = new TreeSet<>();
        try (InputStream in = MetricNames.class.getResourceAsStream("/metrics/" + component + ".txt")) {
            if (in == null) {
                throw new IllegalStateException(
                        "no checked-in metric list src/test/resources/metrics/" + component + ".txt");
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::trim)
                    .toList()) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                if (line.startsWith("?")) {
                    optional.add(line.substring(1).trim());
                } else {
                    required.add(line);
                }
            }
        }
        return new MetricNames(required, optional);
    }

    /** The names {@code GET url} serves (Prometheus text format). */
    static Set<String> scrape(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + url + ": " + response.statusCode());
        }
        Set<String> names = new TreeSet<>();
        for (String line : response.body().split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String name = line.split(" ")[2];
                if (!name.endsWith("_max")) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    static void writeActual(String component, Set<String> scraped) throws IOException {
        Path dir = Path.of("target", "metric-names");
        Files.createDirectories(dir);
        Files.write(dir.resolve(component + ".txt"), new ArrayList<>(scraped));
    }

    /** Names the list requires but the scrape lacks. */
    List<String> missingFrom(Set<String> scraped) {
        return required.stream().filter(n -> !scraped.contains(n)).toList();
    }

    /** Names scraped but not listed (renamed or new). */
    List<String> unlistedIn(Set<String> scraped) {
        return scraped.stream()
                .filter(n -> !required.contains(n) && !optional.contains(n))
                .toList();
    }
}
