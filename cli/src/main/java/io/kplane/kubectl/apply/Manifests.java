package io.kplane.kubectl.apply;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import io.kplane.api.json.Json;
import io.kplane.kubectl.CliException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads manifests from files, directories ({@code .yaml}, {@code .yml}, {@code .json}, sorted by
 * name) or {@code -} for stdin. A file may hold several YAML documents and {@code kind: List}s.
 * A parse error names the file and the line.
 */
public final class Manifests {
    /** One object from a manifest, with where it came from (for messages). */
    public record Manifest(String source, JsonNode object) {}

    private Manifests() {}

    public static List<Manifest> read(List<String> paths, boolean recursive, InputStream stdin) {
        List<Manifest> out = new ArrayList<>();
        if (paths.isEmpty()) {
            throw new CliException("error: must specify one of -f and -k");
        }
        for (String p : paths) {
            if (p.equals("-")) {
                try {
                    out.addAll(parse("STDIN", new String(stdin.readAllBytes(), StandardCharsets.UTF_8)));
                } catch (IOException e) {
                    throw new CliException("error: reading stdin: " + e.getMessage());
                }
                continue;
            }
            Path path = Path.of(p);
            if (!Files.exists(path)) {
                throw new CliException("error: the path \"" + p + "\" does not exist");
            }
            if (Files.isDirectory(path)) {
                try (Stream<Path> files = recursive ? Files.walk(path) : Files.list(path)) {
                    for (Path f : files.filter(Files::isRegularFile)
                            .filter(Manifests::isManifest)
                            .sorted()
                            .toList()) {
                        out.addAll(readFile(f));
                    }
                } catch (IOException e) {
                    throw new CliException("error: reading " + p + ": " + e.getMessage());
                }
            } else {
                out.addAll(readFile(path));
            }
        }
        return out;
    }

    private static boolean isManifest(Path f) {
        String n = f.getFileName().toString();
        return n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json");
    }

    private static List<Manifest> readFile(Path f) {
        try {
            return parse(f.toString(), Files.readString(f));
        } catch (IOException e) {
            throw new CliException("error: reading " + f + ": " + e.getMessage());
        }
    }

    public static List<Manifest> parse(String source, String text) {
        List<Manifest> out = new ArrayList<>();
        try (JsonParser parser = Json.yamlMapper().createParser(text);
                MappingIterator<JsonNode> docs = Json.yamlMapper().readValues(parser, JsonNode.class)) {
            while (docs.hasNextValue()) {
                JsonNode doc = docs.nextValue();
                if (doc == null || doc.isNull() || doc.isMissingNode() || (doc.isObject() && doc.isEmpty())) {
                    continue;
                }
                if (!doc.isObject()) {
                    throw new CliException("error: error validating \"" + source + "\": a manifest must be an object");
                }
                if (doc.path("kind").asText().endsWith("List")
                        && doc.path("items").isArray()) {
                    doc.path("items").forEach(item -> out.add(check(source, item)));
                } else {
                    out.add(check(source, doc));
                }
            }
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            String where = loc == null ? "" : " line " + loc.getLineNr();
            throw new CliException(
                    "error: error parsing " + source + ":" + where + ": " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new CliException("error: error parsing " + source + ": " + e.getMessage());
        } catch (RuntimeException e) {
            if (e instanceof CliException c) {
                throw c;
            }
            Throwable cause = e.getCause() instanceof JsonProcessingException j ? j : e;
            String where = cause instanceof JsonProcessingException j && j.getLocation() != null
                    ? " line " + j.getLocation().getLineNr()
                    : "";
            throw new CliException("error: error parsing " + source + ":" + where + ": "
                    + firstLine(
                            cause instanceof JsonProcessingException j ? j.getOriginalMessage() : cause.getMessage()));
        }
        return out;
    }

    /** YAML parser messages carry a multi-line excerpt; the CLI prints one line. */
    private static String firstLine(String message) {
        if (message == null) {
            return "malformed document";
        }
        String line = message.strip().lines().findFirst().orElse("").strip();
        return line.endsWith(":") ? line.substring(0, line.length() - 1) : line;
    }

    private static Manifest check(String source, JsonNode doc) {
        if (doc.path("apiVersion").asText().isEmpty()
                || doc.path("kind").asText().isEmpty()) {
            throw new CliException("error: error validating \"" + source + "\": error validating data: "
                    + (doc.path("apiVersion").asText().isEmpty() ? "apiVersion not set" : "kind not set"));
        }
        return new Manifest(source, doc);
    }
}
