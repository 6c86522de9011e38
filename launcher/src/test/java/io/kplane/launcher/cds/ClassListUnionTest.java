package io.kplane.launcher.cds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClassListUnionTest {
    @Test
    void groupsClassesByTheComponentsThatLoadThemMostSharedFirstDirectivesLast() {
        List<String> apiserver = List.of(
                "# NOTE: Do not modify this file.",
                "java/lang/Object",
                "io/netty/Channel",
                "com/fasterxml/Json",
                "io/kplane/apiserver/Main",
                "@lambda-proxy io/kplane/apiserver/Main run ()Ljava/lang/Runnable;",
                "io/vertx/Vertx");
        List<String> kubelet = List.of(
                "java/lang/Object",
                "io/netty/Channel",
                "io/kplane/kubelet/Main",
                "com/fasterxml/Json",
                "io/vertx/Vertx");
        List<String> ttl = List.of(
                "java/lang/Object",
                "com/fasterxml/Json",
                "io/kplane/controllers/Ttl",
                "@lambda-form-invoker [LF_RESOLVE] java.lang.invoke.DirectMethodHandle$Holder invokeStatic L_L");
        List<String> gc = List.of("java/lang/Object", "com/fasterxml/Json", "io/kplane/controllers/Gc");

        assertThat(ClassListUnion.union(List.of(apiserver, gc, kubelet, ttl)))
                .containsExactly(
                        // all four
                        "java/lang/Object",
                        "com/fasterxml/Json",
                        // apiserver and kubelet, in the order the apiserver loaded them
                        "io/netty/Channel",
                        "io/vertx/Vertx",
                        // one component each, first-seen order
                        "io/kplane/apiserver/Main",
                        "io/kplane/controllers/Gc",
                        "io/kplane/kubelet/Main",
                        "io/kplane/controllers/Ttl",
                        "@lambda-proxy io/kplane/apiserver/Main run ()Ljava/lang/Runnable;",
                        "@lambda-form-invoker [LF_RESOLVE] java.lang.invoke.DirectMethodHandle$Holder invokeStatic L_L");
    }

    @Test
    void keepsARepeatedLambdaProxyLineAsOftenAsOneListHasIt() {
        // two call sites of one class with the same key need two archived proxies
        String supplier = "@lambda-proxy ch/qos/logback/classic/PatternLayout get ()Ljava/util/function/Supplier;";
        String invoker = "@lambda-form-invoker [LF_RESOLVE] java.lang.invoke.Invokers$Holder linkToTargetMethod L_L";
        List<String> ttl = List.of("ch/qos/logback/classic/PatternLayout", supplier, supplier, invoker, invoker);
        List<String> gc = List.of("ch/qos/logback/classic/PatternLayout", supplier, supplier, supplier, invoker);
        List<String> kubelet = List.of("ch/qos/logback/classic/PatternLayout", supplier);

        assertThat(ClassListUnion.union(List.of(ttl, gc, kubelet)))
                .containsExactly("ch/qos/logback/classic/PatternLayout", supplier, supplier, supplier, invoker);
    }
}
