package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * deploy/Dockerfile's default path builds the reactor from source inside the image. CI builds the
 * image from the jars {@code mvn verify} just built ({@code KPLANE_JARS=prebuilt}), so nothing else
 * would notice that path breaking. Building it in CI would compile the whole reactor a second time
 * (160 s quiet, 650 s loaded); instead this checks, in milliseconds, what that build consumes against
 * what the repository has: the modules the root pom lists, their poms' jar names, the Maven commands'
 * flags and every file a pom reaches outside its module (docs/launcher.md, "The from-source image
 * build's guard").
 */
class DockerfileSourceBuildTest {
    private static final Path ROOT = LaunchedStack.ROOT;
    private static final Pattern JAR_IN_TARGET = Pattern.compile("([\\w-]+)/target/([\\w-]+)\\.jar");

    @Test
    void everyModulesPomAndSourcesAreCopiedAndNothingThatIsNotAModule() throws IOException {
        List<String> copies = instructions("COPY");
        Set<String> pomsCopied = new TreeSet<>();
        Set<String> sourcesCopied = new TreeSet<>();
        for (String copy : copies) {
            Matcher pom = Pattern.compile("^([\\w-]+)/pom\\.xml \\1/$").matcher(copy);
            Matcher src = Pattern.compile("^([\\w-]+)/src \\1/src$").matcher(copy);
            if (pom.matches()) {
                pomsCopied.add(pom.group(1));
            } else if (src.matches()) {
                sourcesCopied.add(src.group(1));
            }
        }
        Set<String> modules = modules(ROOT.resolve("pom.xml"));
        assertThat(pomsCopied)
                .as("modules whose pom.xml deploy/Dockerfile copies")
                .isEqualTo(modules);
        assertThat(sourcesCopied)
                .as("modules whose src/ deploy/Dockerfile copies")
                .isEqualTo(modules);
        for (String module : modules) {
            assertThat(ROOT.resolve(module).resolve("src")).as("%s/src", module).isDirectory();
        }
        assertThat(copies).as("the root pom").contains("pom.xml ./");
        assertThat(copies)
                .as(".mvn (jvm.config: the javac exports Error Prone needs on JDK 17)")
                .contains(".mvn .mvn");
        assertThat(Files.readString(ROOT.resolve(".dockerignore")).lines())
                .as(".dockerignore")
                .contains("**/target", ".git");
    }

    @Test
    void theSourceBuildRunsTheWholeReactorSkippingTestsButBuildingTestJars() throws IOException {
        List<String> maven = mavenCommands();
        assertThat(maven).as("mvn commands in deploy/Dockerfile").hasSize(2);
        for (String command : maven) {
            assertThat(command).as(command).contains(" package").contains("-DskipTests");
            // the whole reactor: a -pl list would have to name modules that exist and their dependencies
            assertThat(command).as(command).doesNotContain("-pl ").doesNotContain("--projects");
            // -Dmaven.test.skip would not compile the tests, so the apiserver's test-jar, which other
            // modules depend on (even with tests skipped, Maven resolves test-scoped dependencies), is missing
            assertThat(command).as(command).doesNotContain("maven.test.skip");
        }
        assertThat(Files.readString(ROOT.resolve("apiserver/pom.xml")))
                .as("the premise of the maven.test.skip check")
                .contains("<goal>test-jar</goal>");
        assertThat(maven.get(1))
                .as("the real build is offline: what the dependency layer missed fails the build")
                .contains(" -o ");
    }

    @Test
    void theJarsTakenFromTheSourceBuildAreTheModulesJarsAndTheSameAsThePrebuiltOnes() throws IOException {
        String run = String.join("\n", instructions("RUN"));
        Set<String> fromSource = new TreeSet<>();
        Matcher m = JAR_IN_TARGET.matcher(run);
        Set<String> modules = modules(ROOT.resolve("pom.xml"));
        while (m.find()) {
            String module = m.group(1);
            String jar = m.group(2);
            assertThat(modules)
                    .as("%s/target/%s.jar comes from a module", module, jar)
                    .contains(module);
            // the shade plugin's finalName, or its outputFile in the build directory
            assertThat(Files.readString(ROOT.resolve(module).resolve("pom.xml")))
                    .as("%s/pom.xml builds %s.jar", module, jar)
                    .containsAnyOf(
                            "<finalName>" + jar + "</finalName>",
                            "<outputFile>${project.build.directory}/" + jar + ".jar</outputFile>");
            fromSource.add(jar + ".jar");
        }
        assertThat(fromSource).as("jars copied out of the source build").hasSize(5);
        Set<String> prebuilt = new TreeSet<>();
        Matcher p = Pattern.compile("(?<![\\w/-])(kplane-[\\w-]+\\.jar)").matcher(run);
        while (p.find()) {
            prebuilt.add(p.group(1));
        }
        assertThat(prebuilt).as("jars the prebuilt branch takes").isEqualTo(fromSource);
        Set<String> composeE2e = new TreeSet<>();
        Matcher c = JAR_IN_TARGET.matcher(Files.readString(ROOT.resolve("deploy/compose-e2e.sh")));
        while (c.find()) {
            composeE2e.add(c.group(2) + ".jar");
        }
        assertThat(composeE2e)
                .as("jars deploy/compose-e2e.sh puts in deploy/prebuilt/")
                .isEqualTo(fromSource);
    }

    /**
     * The image build sees only the root pom, .mvn and each module's pom.xml and src/: a pom that
     * reaches for anything else (a shared formatter file, docs packaged as resources) breaks it unless
     * that is copied too. Test-only settings (a surefire/failsafe system property) do not count: the
     * image build skips tests.
     */
    @Test
    void noPomReachesForAFileTheImageBuildDoesNotCopy() throws IOException {
        List<String> copied =
                instructions("COPY").stream().map(c -> c.split(" ")[0]).toList();
        Pattern outside = Pattern.compile(
                "\\$\\{(?:project\\.basedir|basedir)}/\\.\\./([\\w./-]*)|\\$\\{maven\\.multiModuleProjectDirectory}/([\\w./-]*)"
                        + "|\\$\\{session\\.executionRootDirectory}/([\\w./-]*)");
        List<String> problems = new ArrayList<>();
        List<Path> poms = new ArrayList<>(List.of(ROOT.resolve("pom.xml")));
        modules(ROOT.resolve("pom.xml"))
                .forEach(mod -> poms.add(ROOT.resolve(mod).resolve("pom.xml")));
        for (Path pom : poms) {
            for (String line : Files.readAllLines(pom)) {
                Matcher m = outside.matcher(line);
                while (m.find()) {
                    if (line.contains("systemPropertyVariables")) {
                        continue; // read by tests only
                    }
                    String target = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
                    boolean isCopied =
                            copied.stream().anyMatch(c -> !target.isEmpty() && (target + "/").startsWith(c + "/"));
                    if (!isCopied) {
                        problems.add(ROOT.relativize(pom) + ": " + line.trim());
                    }
                }
            }
        }
        assertThat(problems)
                .as("pom references outside the module that deploy/Dockerfile does not copy")
                .isEmpty();
    }

    private static Set<String> modules(Path pom) throws IOException {
        Set<String> modules = new TreeSet<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(pom));
        while (m.find()) {
            modules.add(m.group(1));
        }
        return modules;
    }

    /** The build stage's instructions of a kind, continuation lines joined, comments dropped. */
    private static List<String> instructions(String kind) throws IOException {
        List<String> out = new ArrayList<>();
        StringBuilder current = null;
        for (String line : Files.readAllLines(ROOT.resolve("deploy/Dockerfile"))) {
            String trimmed = line.trim();
            if (trimmed.startsWith("FROM ") && !trimmed.contains(" AS build")) {
                break; // the runtime stage: not the build
            }
            if (trimmed.startsWith("#") || trimmed.isEmpty()) {
                continue;
            }
            if (current == null) {
                if (!trimmed.startsWith(kind + " ")) {
                    continue;
                }
                current = new StringBuilder(trimmed.substring(kind.length() + 1));
            } else {
                current.append(' ').append(trimmed);
            }
            if (current.toString().endsWith("\\")) {
                current.setLength(current.length() - 1);
            } else {
                out.add(current.toString().trim().replaceAll("\\s+", " "));
                current = null;
            }
        }
        return out;
    }

    private static List<String> mavenCommands() throws IOException {
        List<String> out = new ArrayList<>();
        for (String run : instructions("RUN")) {
            Matcher m = Pattern.compile("\\bmvn [^&;|]*").matcher(run);
            while (m.find()) {
                out.add(m.group().trim() + " ");
            }
        }
        return out;
    }
}
