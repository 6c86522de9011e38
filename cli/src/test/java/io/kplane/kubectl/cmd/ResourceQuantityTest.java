package io.kplane.kubectl.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Quantity sums printed as Kubernetes' canonical {@code Quantity.String()} would print them. */
class ResourceQuantityTest {
    @ParameterizedTest(name = "{0} + {1} = {2}")
    @CsvSource({
        "100m, 200m, 300m",
        "1, 500m, 1500m",
        "1, 1, 2",
        "0.5, 0.5, 1",
        "128Mi, 128Mi, 256Mi",
        "1Gi, 512Mi, 1536Mi",
        "1Gi, 1Gi, 2Gi",
        "24683656Ki, 0, 24683656Ki",
        "1G, 500M, 1500M",
        "1000, 24, 1024",
        "0, 0, 0",
        "'', 250m, 250m"
    })
    void sums(String a, String b, String expected) {
        ResourceQuantity sum = ResourceQuantity.parse(new TextNode(a)).plus(ResourceQuantity.parse(new TextNode(b)));
        assertThat(sum).hasToString(expected);
    }

    @ParameterizedTest(name = "{0} of {1} = {2}%")
    @CsvSource({"100m, 2, 5", "1Gi, 4Gi, 25", "0, 2, 0", "1, 0, 0", "1999m, 2, 99"})
    void percentages(String part, String whole, long expected) {
        assertThat(ResourceQuantity.parse(new TextNode(part)).percentOf(ResourceQuantity.parse(new TextNode(whole))))
                .isEqualTo(expected);
    }
}
