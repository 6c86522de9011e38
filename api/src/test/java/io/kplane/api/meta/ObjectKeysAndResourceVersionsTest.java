package io.kplane.api.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kplane.api.core.Node;
import io.kplane.api.core.Pod;
import org.junit.jupiter.api.Test;

class ObjectKeysAndResourceVersionsTest {

    @Test
    void keysOfNamespacedAndClusterScopedObjectsRoundTrip() {
        assertThat(ObjectKeys.of("team-a", "pi")).isEqualTo("team-a/pi");
        assertThat(ObjectKeys.of(null, "node-1")).isEqualTo("node-1");
        assertThat(ObjectKeys.of("", "default")).isEqualTo("default");
        assertThat(ObjectKeys.split("team-a/pi")).isEqualTo(new ObjectKeys.Key("team-a", "pi"));
        // cluster-scoped: most of the old hand-written splits threw on these
        assertThat(ObjectKeys.split("node-1")).isEqualTo(new ObjectKeys.Key("", "node-1"));
        assertThat(ObjectKeys.split("/x")).isEqualTo(new ObjectKeys.Key("", "x"));
        assertThatThrownBy(() -> ObjectKeys.split("a/b/c"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unexpected key format: \"a/b/c\"");
    }

    @Test
    void kubeObjectKeyIsTheSameKey() {
        Pod pod = new Pod(Pod.API_VERSION, Pod.KIND, ObjectMeta.named("ns", "p"), null, null);
        Node node = new Node(Node.API_VERSION, Node.KIND, ObjectMeta.named(null, "node-1"), null, null);
        assertThat(pod.key()).isEqualTo("ns/p");
        assertThat(ObjectKeys.split(pod.key())).isEqualTo(new ObjectKeys.Key("ns", "p"));
        assertThat(node.key()).isEqualTo("node-1");
        assertThat(ObjectKeys.split(node.key())).isEqualTo(new ObjectKeys.Key("", "node-1"));
    }

    @Test
    void newerComparesTheStoresRevisionsNumerically() {
        assertThat(ResourceVersions.isNewer("10", "9")).isTrue(); // not a string comparison ("10" < "9")
        assertThat(ResourceVersions.isNewer("9", "10")).isFalse();
        assertThat(ResourceVersions.isNewer("7", "7")).isFalse();
        assertThat(ResourceVersions.isNewer("12345678901234", "1")).isTrue();
        // not kplane revisions: never ordered
        assertThat(ResourceVersions.isNewer(null, "1")).isFalse();
        assertThat(ResourceVersions.isNewer("2", null)).isFalse();
        assertThat(ResourceVersions.isNewer("abc", "1")).isFalse();
        assertThat(ResourceVersions.isNewer("2", "")).isFalse();
        assertThat(ResourceVersions.isNewer("2", "-5")).isFalse();
        assertThat(ResourceVersions.parse("42")).isEqualTo(42);
        assertThat(ResourceVersions.parse("x")).isEqualTo(-1);
    }
}
