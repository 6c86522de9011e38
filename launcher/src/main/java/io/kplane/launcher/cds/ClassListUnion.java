package io.kplane.launcher.cds;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The class list the stack's archive is dumped from: the union of the components' class lists, in the
 * order that keeps each process's pages few.
 *
 * <p>Why the order matters: the archive lays classes out roughly in class-list order, and a process
 * writes to the read-write pages of every class it loads (a page written becomes private to the
 * process). In a plain union in first-seen order the classes a light controller uses sit between the
 * API server's and the kubelet's (Netty, Vert.x, the PostgreSQL client), so each controller dirtied
 * many more pages than with an archive of its own (measured: +3 MB PSS per light controller). Here
 * classes are grouped by the set of components that load them, the groups loaded by the most
 * components first, each group in the order its first component loaded it: a process's classes are
 * then a few runs of pages it shares with the components that use the same classes.
 * {@code @lambda-proxy} and {@code @lambda-form-invoker} lines follow every class (each names classes
 * that must already be loaded), in first-seen order.
 *
 * <p>A {@code @lambda-proxy} line stays as many times as the list that repeats it most has it: each
 * line is one archived proxy class, and each call site takes one of the proxies archived for its key
 * (caller, interface, signatures, target) for itself. Identical lines are distinct call sites of one
 * class, e.g. logback's {@code PatternLayout} maps several converter names to the same {@code X::new};
 * kept once, 23 of its 66 call sites spun their proxy at every start (docs/performance.md, "Start-up
 * CPU per component", 2026-11-26).
 */
public final class ClassListUnion {
    private static final String LAMBDA_PROXY = "@lambda-proxy ";

    private ClassListUnion() {}

    public static List<String> union(List<List<String>> lists) {
        Map<String, BitSet> users = new LinkedHashMap<>();
        // each directive with the most times one list has it (only a @lambda-proxy line repeats)
        Map<String, Integer> directives = new LinkedHashMap<>();
        for (int i = 0; i < lists.size(); i++) {
            Map<String, Integer> inThisList = new HashMap<>();
            for (String line : lists.get(i)) {
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) {
                    continue;
                }
                if (l.startsWith("@")) {
                    int times = l.startsWith(LAMBDA_PROXY) ? inThisList.merge(l, 1, Integer::sum) : 1;
                    directives.merge(l, times, Math::max);
                } else {
                    users.computeIfAbsent(l, k -> new BitSet()).set(i);
                }
            }
        }
        // group key: the set of lists a class appears in; the groups with the most lists first, then
        // in the order the group was first seen (a stable sort keeps first-seen order inside a group)
        Map<BitSet, Integer> groupOrder = new LinkedHashMap<>();
        for (BitSet set : users.values()) {
            groupOrder.putIfAbsent(set, groupOrder.size());
        }
        List<String> classes = new ArrayList<>(users.keySet());
        classes.sort(Comparator.comparingInt((String c) -> -users.get(c).cardinality())
                .thenComparingInt(c -> groupOrder.get(users.get(c))));
        List<String> out = new ArrayList<>(classes.size() + directives.size());
        out.addAll(classes);
        directives.forEach((line, times) -> out.addAll(Collections.nCopies(times, line)));
        return out;
    }

    /** The {@code *.classlist} files of {@code dir}, by name. */
    public static List<List<String>> readLists(Path dir) throws IOException {
        List<List<String>> lists = new ArrayList<>();
        try (var files = Files.list(dir)) {
            for (Path file : files.filter(p -> p.getFileName().toString().endsWith(".classlist"))
                    .sorted()
                    .toList()) {
                lists.add(Files.readAllLines(file, StandardCharsets.UTF_8));
            }
        }
        return lists;
    }
}
