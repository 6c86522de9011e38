package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A rebuild must never rewrite a component jar in place: `./kplane up` runs every component from the
 * build tree's jars, and a JVM reads its jar lazily (the central directory once, each class when first
 * used). The kubelet's jar was the shade plugin's {@code outputFile}, which shade writes in place (same
 * inode): a stack left running while the jars were rebuilt had its kubelet load a class from the new
 * bytes at the old offsets, its pod informer thread died of {@code NoClassDefFoundError:
 * ProcessorListener$Delete}, every pod bound to the node afterwards stayed Pending, and {@code
 * kubectl-lite logs} answered {@code BadGateway: ... Connection was closed}. With {@code finalName}
 * shade renames the old jar to {@code original-<name>.jar} and the new one into place, so running JVMs
 * keep reading the bytes they started with (docs/launcher.md, "Rebuilding under a running stack").
 */
class ComponentJarsReplacedByRenameTest {
    private static final Path ROOT = LaunchedStack.ROOT;
    private static final Pattern SHADE_EXECUTION =
            Pattern.compile("<artifactId>maven-shade-plugin</artifactId>(.*?)</plugin>", Pattern.DOTALL);

    @Test
    void noModuleShadesIntoAnOutputFileWrittenInPlace() throws IOException {
        List<String> shaded = new ArrayList<>();
        try (var modules = Files.list(ROOT)) {
            for (Path pom : modules.map(m -> m.resolve("pom.xml"))
                    .filter(Files::isRegularFile)
                    .toList()) {
                Matcher m = SHADE_EXECUTION.matcher(Files.readString(pom));
                while (m.find()) {
                    String configuration = m.group(1);
                    if (!configuration.contains("<goal>shade</goal>")) {
                        continue; // the root pom's pluginManagement entry (a version only)
                    }
                    String module = ROOT.relativize(pom.getParent()).toString();
                    shaded.add(module);
                    assertThat(configuration)
                            .as(
                                    "%s/pom.xml: shade's outputFile is written in place under running components;"
                                            + " use finalName (the new jar is renamed over the old one)",
                                    module)
                            .doesNotContain("<outputFile>");
                }
            }
        }
        // the component jars the stack runs from (and kubectl-lite's)
        assertThat(shaded).contains("apiserver", "controllers", "kubelet-sim", "cli");
    }

    @Test
    void theLauncherJarIsReplacedByRenameToo() throws IOException {
        // the launcher shades into its own artifact (build finalName kplane-launcher): shade renames the
        // jar plugin's output aside and its own into place; no outputFile there either
        String pom = Files.readString(ROOT.resolve("launcher/pom.xml"));
        assertThat(pom).contains("<finalName>kplane-launcher</finalName>").doesNotContain("<outputFile>");
    }
}
