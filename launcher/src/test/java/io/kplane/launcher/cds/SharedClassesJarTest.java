package io.kplane.launcher.cds;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedClassesJarTest {
    @TempDir
    Path dir;

    @Test
    void holdsTheListedClassesAsTheJarsCarryThemAndNoUnreferencedClass() throws IOException {
        Path apiserver = jar(
                "apiserver.jar",
                false,
                Map.of(
                        "lib/Common.class", "common",
                        "lib/Versioned.class", "v1",
                        "lib/Old.class", "library 3.20",
                        "api/Only.class", "only in the apiserver",
                        "api/NotListed.class", "never loaded",
                        "logback.xml", "<configuration/>",
                        "META-INF/services/x.Provider", "api.Impl"));
        Path kubelet = jar(
                "kubelet.jar",
                true,
                Map.of(
                        "lib/Common.class", "common",
                        "lib/Versioned.class", "v1",
                        "META-INF/versions/11/lib/Versioned.class", "v11",
                        "lib/Old.class", "library 3.19",
                        "logback.xml", "<configuration debug='true'/>"));
        Path list = dir.resolve("union.classlist");
        Files.writeString(
                list,
                String.join(
                        "\n",
                        "# NOTE: Do not modify this file.",
                        "java/lang/Object",
                        "lib/Common",
                        "lib/Versioned",
                        "lib/Old",
                        "api/Only",
                        "@lambda-proxy api/Only run ()Ljava/lang/Runnable; ()V 6 api/Only lambda$0 ()V ()V",
                        ""));
        Path out = dir.resolve("shared.jar");

        SharedClassesJar.Result result =
                SharedClassesJar.write(out, SharedClassesJar.classNames(list), List.of(apiserver, kubelet));

        // two versions of a library; and the kubelet's multi-release jar loads v11 on this JDK where the
        // apiserver's plain jar loads v1: each component keeps loading its own jar's class
        assertThat(result.conflicting()).containsExactly("lib/Versioned", "lib/Old");
        assertThat(result.written()).isEqualTo(2);
        assertThat(entries(out))
                .containsOnlyKeys("META-INF/MANIFEST.MF", "lib/Common.class", "api/Only.class")
                .containsEntry("lib/Common.class", "common")
                .containsEntry("api/Only.class", "only in the apiserver");
        try (JarFile shared = new JarFile(out.toFile())) {
            assertThat(shared.isMultiRelease()).isFalse();
        }
    }

    @Test
    void aMultiReleaseJarContributesTheEntryThisJdkLoads() throws IOException {
        Path kubelet = jar(
                "kubelet.jar",
                true,
                Map.of("lib/Versioned.class", "v1", "META-INF/versions/11/lib/Versioned.class", "v11"));
        Path out = dir.resolve("shared.jar");

        SharedClassesJar.write(out, java.util.Set.of("lib/Versioned"), List.of(kubelet));

        assertThat(entries(out)).containsEntry("lib/Versioned.class", "v11");
    }

    /**
     * The archive's dump verifies each listed class and resolves its lambdas, which loads the classes
     * their code and signatures name: those (and their supertypes) go in even though training never
     * loaded them; a class nothing listed names stays out.
     */
    @Test
    void addsTheClassesTheListedOnesNameWithTheirSupertypes() throws IOException {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        for (Class<?> c : List.of(Listed.class, Returned.class, ReturnedBase.class, InLambda.class, Unnamed.class)) {
            classes.put(internalName(c) + ".class", classFile(c));
        }
        Path component = jarOfBytes("component.jar", classes);
        Path out = dir.resolve("shared.jar");

        SharedClassesJar.Result result =
                SharedClassesJar.write(out, java.util.Set.of(internalName(Listed.class)), List.of(component));

        assertThat(result.written()).isEqualTo(4);
        assertThat(entries(out))
                .containsKeys(
                        internalName(Listed.class) + ".class",
                        internalName(Returned.class) + ".class", // a method's return type
                        internalName(ReturnedBase.class) + ".class", // its superclass
                        internalName(InLambda.class) + ".class") // a lambda's parameter type
                .doesNotContainKey(internalName(Unnamed.class) + ".class");
    }

    static class ReturnedBase {}

    static class Returned extends ReturnedBase {}

    static class InLambda {}

    static class Unnamed {}

    static class Listed {
        Returned make() {
            return null;
        }

        java.util.function.Consumer<InLambda> consumer() {
            return (InLambda x) -> {};
        }
    }

    private static String internalName(Class<?> c) {
        return c.getName().replace('.', '/');
    }

    private static byte[] classFile(Class<?> c) throws IOException {
        try (var in = c.getResourceAsStream("/" + internalName(c) + ".class")) {
            return in.readAllBytes();
        }
    }

    private Path jarOfBytes(String name, Map<String, byte[]> entries) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        Path path = dir.resolve(name);
        try (OutputStream file = Files.newOutputStream(path);
                JarOutputStream jar = new JarOutputStream(file, manifest)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                jar.putNextEntry(new ZipEntry(e.getKey()));
                jar.write(e.getValue());
                jar.closeEntry();
            }
        }
        return path;
    }

    /**
     * kplane-component starts a component given as {@code -jar JAR} with {@code -cp SHARED:JAR MAIN}: the
     * main class it names for each jar must be a real main class (the jar's own is set in its pom).
     */
    @Test
    void theScriptNamesARealMainClassForEveryComponentJar() throws Exception {
        String script = Files.readString(Path.of("..", "deploy", "bin", "kplane-component"));
        Matcher m =
                Pattern.compile("(kplane-[a-z-]+\\.jar)\\) echo ([\\w.]+) ;;").matcher(script);
        Map<String, String> mains = new LinkedHashMap<>();
        while (m.find()) {
            mains.put(m.group(1), m.group(2));
        }
        assertThat(mains)
                .containsOnlyKeys(
                        "kplane-apiserver.jar",
                        "kplane-controllers.jar",
                        "kplane-kubelet-sim.jar",
                        "kplane-launcher.jar")
                .containsEntry("kplane-apiserver.jar", io.kplane.apiserver.ApiServerMain.class.getName())
                .containsEntry("kplane-controllers.jar", io.kplane.controllers.ControllersMain.class.getName())
                .containsEntry("kplane-kubelet-sim.jar", io.kplane.kubelet.KubeletMain.class.getName())
                .containsEntry("kplane-launcher.jar", io.kplane.launcher.LauncherMain.class.getName());
        for (String main : mains.values()) {
            Method method = Class.forName(main).getMethod("main", String[].class);
            assertThat(Modifier.isStatic(method.getModifiers())).as(main).isTrue();
        }
    }

    private Path jar(String name, boolean multiRelease, Map<String, String> entries) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (multiRelease) {
            manifest.getMainAttributes().put(Attributes.Name.MULTI_RELEASE, "true");
        }
        Path path = dir.resolve(name);
        try (OutputStream file = Files.newOutputStream(path);
                JarOutputStream jar = new JarOutputStream(file, manifest)) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                jar.putNextEntry(new ZipEntry(e.getKey()));
                jar.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                jar.closeEntry();
            }
        }
        return path;
    }

    private static Map<String, String> entries(Path jar) throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (var e : java.util.Collections.list(file.entries())) {
                entries.put(e.getName(), new String(file.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return entries;
    }
}
