package io.kplane.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Old (typed decode) vs new (tree walk) unknown-field detection, ns per call on a typical Pod and Job.
 * Not a unit test. Run from the repo root after {@code mvn -o -pl apiserver test-compile}:
 * <pre>
 * mvn -q -o -pl apiserver dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp apiserver/target/test-classes:apiserver/target/classes:$(cat /tmp/cp.txt) \
 *     io.kplane.apiserver.admission.UnknownFieldsBenchmark
 * </pre>
 */
public final class UnknownFieldsBenchmark {
    @SuppressWarnings("unused") // written, never read: the JIT cannot drop the measured call
    private static volatile Object sink;

    private UnknownFieldsBenchmark() {}

    public static void main(String[] args) {
        long millis = args.length > 0 ? Long.parseLong(args[0]) : 2000;
        for (ResourceType type : List.of(ResourceTypes.PODS, ResourceTypes.JOBS)) {
            ObjectNode object = SampleObjects.of(type);
            for (int round = 0; round < 2; round++) { // round 0 is warm-up
                double old = nsPerCall(DecodeOracle::find, type, object, millis);
                double walk = nsPerCall(UnknownFields::find, type, object, millis);
                if (round == 1) {
                    System.out.printf(
                            "%-4s decode %,9.0f ns/call   walk %,7.0f ns/call   ratio %.1fx%n",
                            type.kind(), old, walk, old / walk);
                }
            }
        }
    }

    private static double nsPerCall(
            BiFunction<ResourceType, ObjectNode, List<String>> find,
            ResourceType type,
            ObjectNode object,
            long millis) {
        long calls = 0;
        long start = System.nanoTime();
        long end = start + millis * 1_000_000;
        long now;
        do {
            for (int i = 0; i < 100; i++) {
                sink = find.apply(type, object);
            }
            calls += 100;
            now = System.nanoTime();
        } while (now < end);
        return (double) (now - start) / calls;
    }
}
