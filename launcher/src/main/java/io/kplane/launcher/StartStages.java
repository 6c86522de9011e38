package io.kplane.launcher;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The order in which {@code up} starts the stack's processes: the API server and what it needs
 * (PostgreSQL) first; every other component once the API server's JVM has reached its {@code main} and
 * bound its port ({@code ApiServerMain} binds it before it opens the database and answers 503 until
 * then), or once its process has exited (a start that fails is shown with everything else started, as
 * before).
 *
 * <p>Why: the start is CPU-bound (eleven JVMs, ~12–16 CPU-seconds on two cores) and everything waits for
 * the API server. Started all at once, the API server's own JVM start shared the two cores with ten
 * others and reached {@code main} ~4 s after {@code up} on a quiet machine; started first, it gets the
 * cores while it starts, and the other JVMs' start overlaps its database open and initialisation
 * instead. Each component still waits for its own prerequisites by itself, so this order only moves CPU
 * time: nothing depends on it for correctness. (A wave order that waited for the API server to be
 * <em>healthy</em> was measured and left in 2026-11-24: it added the other JVMs' start to the API
 * server's; docs/performance.md, "`up`'s critical path".)
 */
record StartStages(List<ComponentSpec> first, ComponentSpec gate, List<ComponentSpec> then) {
    static final String API_SERVER = "apiserver";

    /** Splits a plan: the API server and its prerequisites first, the rest after the gate (the API server). */
    static StartStages of(List<ComponentSpec> plan) {
        Map<String, ComponentSpec> byName =
                plan.stream().collect(Collectors.toMap(ComponentSpec::name, Function.identity()));
        ComponentSpec api = byName.get(API_SERVER);
        if (api == null) {
            return new StartStages(plan, null, List.of()); // no API server to give way to: all at once
        }
        Set<String> firstNames = new HashSet<>();
        collect(api, byName, firstNames);
        List<ComponentSpec> first = new ArrayList<>();
        List<ComponentSpec> then = new ArrayList<>();
        for (ComponentSpec c : plan) {
            (firstNames.contains(c.name()) ? first : then).add(c);
        }
        return new StartStages(List.copyOf(first), api, List.copyOf(then));
    }

    private static void collect(ComponentSpec c, Map<String, ComponentSpec> byName, Set<String> into) {
        if (!into.add(c.name())) {
            return;
        }
        for (String dependency : c.dependsOn()) {
            ComponentSpec d = byName.get(dependency);
            if (d != null) {
                collect(d, byName, into);
            }
        }
    }
}
