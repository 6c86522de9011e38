package io.kplane.launcher.cds;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Writes the class path entry that every component's JVM puts before its own jar, so that one
 * class-data archive serves the whole stack (deploy/bin/kplane-component, docs/launcher.md "JVM
 * sizing and class-data archives").
 *
 * <p>Why: each component jar is a fat jar, and a static archive may only hold classes of the class
 * path it was dumped with, so with one archive per jar the JDK classes and the libraries every
 * component uses (Netty, Vert.x, Jackson, logback, java.net.http) were archived four times, and the
 * read-only pages of each copy were mapped by one process only. The jar written here holds the
 * classes named by the training runs' class lists, each exactly as the component jars carry it
 * (the entry a multi-release jar resolves for this JDK), and the classes those name (in their
 * signatures, their code and their lambdas) with their supertypes: the dump verifies each listed class
 * and resolves its lambda call sites, which loads the classes they name, and a class it cannot load
 * leaves the listed class or the call site out of the archive ({@link ReferencedClasses}); a class that two jars carry with different
 * bytes (e.g. two versions of a library) is left out, so each component still loads its own jar's
 * version of it. Nothing but classes goes in: resources, service files and manifests are still found
 * in each component's own jar, and every class a component's own jar carries resolves to the same
 * bytes as before. The one difference: a class that only another component's jar carries (and some
 * component loaded in training, or a loaded class names) now resolves in this component too, so code that probes for an
 * optional class by name could see it where it did not before; the stack's end-to-end tests (the
 * launcher's ITs, compose-e2e) run every component on this class path.
 *
 * <p>Usage: {@code SharedClassesJar OUT.jar OUT.classlist LISTDIR JAR...}: writes the union of the
 * {@code *.classlist} files of LISTDIR ({@link ClassListUnion}, the list to dump the archive from) and
 * the jar of the classes it names.
 */
public final class SharedClassesJar {
    private SharedClassesJar() {}

    /** What {@link #write} put into the jar and what it left out because the jars disagree. */
    public record Result(int written, List<String> conflicting) {}

    public static void main(String[] args) throws IOException {
        if (args.length < 4) {
            System.err.println("usage: SharedClassesJar OUT.jar OUT.classlist LISTDIR JAR...");
            System.exit(2);
        }
        Path union = Path.of(args[1]);
        Files.write(union, ClassListUnion.union(ClassListUnion.readLists(Path.of(args[2]))), StandardCharsets.UTF_8);
        List<Path> jars = Arrays.stream(args, 3, args.length).map(Path::of).toList();
        Result result = write(Path.of(args[0]), classNames(union), jars);
        System.out.println(result.written() + " classes written, "
                + result.conflicting().size() + " left to the component jars (different bytes in different jars)");
    }

    /**
     * The class names of a {@code -XX:DumpLoadedClassList} file ({@code java/lang/Object}), without
     * its comments and {@code @lambda-proxy}/{@code @lambda-form-invoker} lines.
     */
    public static Set<String> classNames(Path classList) throws IOException {
        Set<String> names = new LinkedHashSet<>();
        for (String line : Files.readAllLines(classList, StandardCharsets.UTF_8)) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("@")) {
                continue;
            }
            int space = trimmed.indexOf(' ');
            names.add(space < 0 ? trimmed : trimmed.substring(0, space));
        }
        return names;
    }

    /**
     * Writes {@code out} with every class of {@code classNames} that at least one of {@code jars}
     * carries and no two of them carry with different bytes, and the jars' classes the listed ones
     * name, with their supertypes ({@link ReferencedClasses}), on the same condition. Classes of the
     * JDK are in no jar and are skipped.
     */
    public static Result write(Path out, Set<String> classNames, List<Path> jars) throws IOException {
        Map<String, byte[]> chosen = new LinkedHashMap<>();
        // The jars' other classes, for the dump to resolve what the listed ones name (ReferencedClasses);
        // listed classes first (each jar's in the list's order), then the others in the jars' order.
        Map<String, byte[]> others = new LinkedHashMap<>();
        Set<String> conflicting = new LinkedHashSet<>();
        for (Path jar : jars) {
            // one open per jar (its central directory is read once); runtime-versioned: a multi-release
            // jar answers with the entry this JDK would load
            try (JarFile jarFile = new JarFile(jar.toFile(), false, ZipFile.OPEN_READ, Runtime.version())) {
                for (String name : classNames) {
                    add(jarFile, jarFile.getJarEntry(name + ".class"), name, chosen, conflicting);
                }
                // versionedStream: one entry per class, named by its base name, the one this JDK loads
                for (JarEntry entry : (Iterable<JarEntry>) jarFile.versionedStream()::iterator) {
                    String file = entry.getName();
                    if (!file.endsWith(".class")
                            || file.startsWith("META-INF/")
                            || file.endsWith("module-info.class")) {
                        continue;
                    }
                    String name = file.substring(0, file.length() - ".class".length());
                    if (!classNames.contains(name)) {
                        add(jarFile, entry, name, others, conflicting);
                    }
                }
            }
        }
        Map<String, byte[]> available = new LinkedHashMap<>(chosen);
        available.putAll(others);
        for (String name : ReferencedClasses.closure(chosen.keySet(), available)) {
            chosen.putIfAbsent(name, others.get(name));
        }
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
        try (OutputStream file = Files.newOutputStream(tmp);
                JarOutputStream jar = new JarOutputStream(file, manifest)) {
            for (Map.Entry<String, byte[]> e : chosen.entrySet()) {
                jar.putNextEntry(new ZipEntry(e.getKey() + ".class"));
                jar.write(e.getValue());
                jar.closeEntry();
            }
        }
        Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return new Result(chosen.size(), new ArrayList<>(conflicting));
    }

    /** Puts one jar's entry for {@code name} into {@code chosen}, unless two jars disagree about it. */
    private static void add(
            JarFile jarFile, JarEntry entry, String name, Map<String, byte[]> chosen, Set<String> conflicting)
            throws IOException {
        if (entry == null || conflicting.contains(name)) {
            return;
        }
        byte[] bytes;
        try (InputStream in = jarFile.getInputStream(entry)) {
            bytes = in.readAllBytes();
        }
        byte[] earlier = chosen.putIfAbsent(name, bytes);
        if (earlier != null && !Arrays.equals(earlier, bytes)) {
            chosen.remove(name);
            conflicting.add(name);
        }
    }
}
