package io.kplane.apiserver.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** The request gate and the handlers read watch=/follow= the same way: Go's strconv.ParseBool trues. */
class QueryBoolTest {

    @ParameterizedTest
    @ValueSource(strings = {"1", "t", "T", "true", "True", "TRUE"})
    void goTrueSpellingsAreTrue(String value) {
        assertThat(QueryBool.isTrue(value)).isTrue();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"0", "f", "false", "False", "FALSE", "tRuE", "yes", "on", " true", "2"})
    void everythingElseIsFalse(String value) {
        assertThat(QueryBool.isTrue(value)).isFalse();
    }
}
