package io.kplane.controllers.job.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The API server's {@code apiserver_request_total} counters, read from its {@code /metrics}, so a run
 * can print how many requests of each verb, resource and code it cost per pod (a write that upstream
 * would not make, or a 409 that redoes a sync, shows here).
 */
final class ApiRequestCounts {
    private static final Pattern LINE = Pattern.compile("^apiserver_request_total\\{([^}]*)} ([0-9.eE+]+)$");
    private static final Pattern TAG = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    /** "verb resource code" → requests answered so far. */
    final Map<String, Double> counts;

    private ApiRequestCounts(Map<String, Double> counts) {
        this.counts = counts;
    }

    static ApiRequestCounts scrape(String serverUrl) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(serverUrl + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        Map<String, Double> counts = new TreeMap<>();
        for (String line : response.body().split("\n")) {
            Matcher m = LINE.matcher(line.trim());
            if (!m.matches()) {
                continue;
            }
            Map<String, String> tags = new TreeMap<>();
            Matcher t = TAG.matcher(m.group(1));
            while (t.find()) {
                tags.put(t.group(1), t.group(2));
            }
            counts.merge(
                    tags.get("verb") + " " + tags.get("resource") + " " + tags.get("code"),
                    Double.parseDouble(m.group(2)),
                    Double::sum);
        }
        return new ApiRequestCounts(counts);
    }

    /** The requests answered since {@code before}, per pod, leaving out reads (get, list, watch). */
    String writesPerPodSince(ApiRequestCounts before, int pods) {
        StringBuilder out = new StringBuilder();
        double total = 0;
        for (Map.Entry<String, Double> e : counts.entrySet()) {
            String verb = e.getKey().split(" ")[0];
            if (verb.equals("get") || verb.equals("list") || verb.equals("watch")) {
                continue;
            }
            double n = e.getValue() - before.counts.getOrDefault(e.getKey(), 0.0);
            if (n <= 0) {
                continue;
            }
            total += n;
            out.append(String.format("%s%s %.3f", out.length() == 0 ? "" : ", ", e.getKey(), n / pods));
        }
        return String.format("%.3f API writes per pod (%s)", total / pods, out);
    }
}
