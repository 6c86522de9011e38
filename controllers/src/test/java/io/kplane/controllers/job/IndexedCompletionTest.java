package io.kplane.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IndexedCompletionTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = ';',
            value = {
                "1 3 4 5 7; 1,3-5,7",
                "0 1; 0,1",
                "0 1 2; 0-2",
                "2 4 5 7 8 9; 2,4,5,7-9",
                "; ''",
            })
    void formatsIntervals(String indexes, String expected) {
        List<Integer> list = indexes == null
                ? List.of()
                : Arrays.stream(indexes.split(" ")).map(Integer::parseInt).toList();
        assertThat(IndexedCompletion.format(list)).isEqualTo(expected == null ? "" : expected);
        assertThat(IndexedCompletion.parse(expected, 100)).containsExactlyElementsOf(list);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = ';',
            value = {"0-2,5; 4; 0 1 2", "x,1-a,3; 10; 3"})
    void parsingDropsOutOfRangeAndMalformedParts(String text, int completions, String expected) {
        assertThat(IndexedCompletion.parse(text, completions))
                .containsExactlyElementsOf(Arrays.stream(expected.split(" "))
                        .map(Integer::parseInt)
                        .toList());
    }
}
