package io.kplane.kubectl.cmd;

import com.fasterxml.jackson.databind.JsonNode;
import io.kplane.kubectl.BaseCommand;
import io.kplane.kubectl.print.RowPrinter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code api-resources}: what the server's discovery documents list (subresources left out). */
@Command(name = "api-resources", description = "Print the supported API resources on the server.")
public final class ApiResourcesCommand extends BaseCommand {
    @Option(
            names = {"-o", "--output"},
            description = "wide: also VERBS and CATEGORIES.")
    String output;

    @Override
    public Integer call() {
        boolean wide = "wide".equals(output);
        List<List<String>> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"));
        if (wide) {
            header.addAll(List.of("VERBS", "CATEGORIES"));
        }
        rows.add(header);
        List<String> groupVersions = new ArrayList<>();
        api().get("/api").path("versions").forEach(v -> groupVersions.add(v.asText()));
        for (JsonNode group : api().get("/apis").path("groups")) {
            groupVersions.add(
                    group.path("preferredVersion").path("groupVersion").asText());
        }
        for (String gv : groupVersions) {
            String path = gv.contains("/") ? "/apis/" + gv : "/api/" + gv;
            for (JsonNode r : api().get(path).path("resources")) {
                String name = r.path("name").asText();
                if (name.contains("/")) {
                    continue;
                }
                List<String> row = new ArrayList<>(List.of(
                        name,
                        join(r.path("shortNames")),
                        gv,
                        Boolean.toString(r.path("namespaced").asBoolean()),
                        r.path("kind").asText()));
                if (wide) {
                    row.add("[" + join(r.path("verbs")).replace(',', ' ') + "]");
                    row.add(join(r.path("categories")));
                }
                rows.add(row);
            }
        }
        out().print(new RowPrinter().format(rows));
        out().flush();
        return 0;
    }

    private static String join(JsonNode array) {
        List<String> parts = new ArrayList<>();
        array.forEach(a -> parts.add(a.asText()));
        return String.join(",", parts);
    }
}
