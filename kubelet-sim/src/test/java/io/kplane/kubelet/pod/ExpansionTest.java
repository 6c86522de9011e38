package io.kplane.kubelet.pod;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cases from Kubernetes' third_party/forked/golang/expansion tests. */
class ExpansionTest {
    static final Map<String, String> VARS = Map.of("VAR_A", "A", "VAR_B", "B", "VAR_C", "C", "VAR_EMPTY", "");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "$(VAR_A)|A",
                "___$(VAR_B)___|___B___",
                "$(VAR_A)-$(VAR_A)|A-A",
                "$(VAR_A)-1|A-1",
                "$(VAR_A)_$(VAR_B)_$(VAR_C)|A_B_C",
                "$$(VAR_B)_$(VAR_A)|$(VAR_B)_A",
                "$$(VAR_A)|$(VAR_A)",
                "$$$$$$(VAR_A)|$$$(VAR_A)",
                "$$$$$$$(VAR_A)|$$$A",
                "f000-$$VAR_A|f000-$VAR_A",
                "foo\\$(VAR_C)bar|foo\\Cbar",
                "$(VAR_DNE)|$(VAR_DNE)",
                "$(VAR_A|$(VAR_A",
                "$(|$(",
                "$|$",
                "$VAR_A|$VAR_A",
                "$(VAR_EMPTY)x|x",
                "$()|$()",
            })
    void expandsLikeKubernetes(String input, String expected) {
        assertThat(Expansion.expand(input, VARS::get)).isEqualTo(expected);
    }

    @Test
    void nullAndPlainInputPassThrough() {
        assertThat(Expansion.expand(null, VARS::get)).isNull();
        assertThat(Expansion.expand("plain", VARS::get)).isEqualTo("plain");
    }
}
