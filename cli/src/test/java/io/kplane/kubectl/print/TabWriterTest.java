package io.kplane.kubectl.print;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Column alignment as Go's {@code text/tabwriter} does it (the cases follow its {@code tests} table:
 * cell termination, column blocks, minimum width, padding, empty cells), with kubectl's two settings:
 * get (min width 6, padding 3) and describe (min width 0, padding 2).
 */
class TabWriterTest {
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("empty input", 0, 2, "", ""),
                Arguments.of("text without tabs passes through", 0, 2, "hello\nworld\n", "hello\nworld\n"),
                Arguments.of("last cell of a line is not padded", 0, 2, "a\tb\n", "a  b\n"),
                Arguments.of("a terminated empty last cell is padded", 0, 2, "a\t\n", "a  \n"),
                Arguments.of("width is the widest cell plus padding", 0, 2, "a\tb\naaaa\tc\n", "a     b\naaaa  c\n"),
                Arguments.of("minimum width", 8, 1, "a\tb\n", "a       b\n"),
                Arguments.of(
                        "padding beyond the minimum",
                        6,
                        3,
                        "NAME\tSTATUS\tAGE\npi\tRunning\t5s\n",
                        "NAME   STATUS    AGE\npi     Running   5s\n"),
                Arguments.of(
                        "a line without the column ends the block",
                        0,
                        2,
                        "a\tb\nxxxxxxxx\nccc\td\n",
                        "a  b\nxxxxxxxx\nccc  d\n"),
                Arguments.of(
                        "inner columns only span lines that have them", 0, 2, "a\tb\tc\nxx\ty\n", "a   b  c\nxx  y\n"),
                Arguments.of(
                        "describe's continuation lines align under the value",
                        0,
                        2,
                        "Name:\tpi\nLabels:\tapp=pi\n\tx=y\nAnnotations:\t<none>\n",
                        "Name:         pi\nLabels:       app=pi\n              x=y\nAnnotations:  <none>\n"),
                Arguments.of(
                        "nested describe blocks align independently",
                        0,
                        2,
                        "Containers:\n  pi:\n    Image:\tperl\n    Port:\t<none>\nEvents:\n  Type\tReason\n  ----\t------\n",
                        "Containers:\n  pi:\n    Image:  perl\n    Port:   <none>\nEvents:\n  Type  Reason\n  ----  ------\n"),
                Arguments.of("width counts characters, not bytes", 0, 1, "é\tx\nab\ty\n", "é  x\nab y\n"),
                Arguments.of("a missing trailing newline still ends the line", 0, 2, "a\tb", "a  b\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aligns(String name, int minWidth, int padding, String input, String expected) {
        assertThat(new TabWriter(minWidth, padding).write(input).flush()).isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    void cellsAddedLineByLineAlignLikeWrittenText() {
        String viaLines = TabWriter.forTables()
                .line("NAME", "COMPLETIONS", "AGE")
                .line("hello-29000000", "1/1", "3m")
                .flush();
        assertThat(viaLines).isEqualTo("NAME             COMPLETIONS   AGE\nhello-29000000   1/1           3m\n");
        assertThat(TabWriter.forTables()
                        .write("NAME\tCOMPLETIONS\tAGE\nhello-29000000\t1/1\t3m\n")
                        .flush())
                .isEqualTo(viaLines);
    }
}
