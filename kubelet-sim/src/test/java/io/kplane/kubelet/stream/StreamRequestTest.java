package io.kplane.kubelet.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The kubelet's streaming paths and query, the subprotocol choice and the exit Status shapes. */
class StreamRequestTest {

    @Test
    void parsesExecWithAndWithoutUid() {
        StreamRequest r = StreamRequest.parse(
                "/exec/ns/pod/uid-1/main",
                "command=sh&command=-c&command=echo%20a%20b&stdin=true&stdout=true&stderr=true");
        assertThat(r.namespace()).isEqualTo("ns");
        assertThat(r.pod()).isEqualTo("pod");
        assertThat(r.uid()).isEqualTo("uid-1");
        assertThat(r.container()).isEqualTo("main");
        assertThat(r.command()).containsExactly("sh", "-c", "echo a b");
        assertThat(r.stdin()).isTrue();
        assertThat(r.stderr()).isTrue();
        assertThat(StreamRequest.parse("/exec/ns/pod/main", "command=ls&stdout=1")
                        .uid())
                .isNull();
    }

    @Test
    void aTtyHasNoSeparateStderr() {
        assertThat(StreamRequest.parse("/exec/ns/pod/main", "command=sh&stdout=true&stderr=true&tty=true")
                        .stderr())
                .isFalse();
    }

    @Test
    void badRequestsSayWhy() {
        assertThatThrownBy(() -> StreamRequest.parse("/exec/ns/pod/main", "command=ls"))
                .hasMessage("you must specify at least 1 of stdin, stdout, stderr");
        assertThatThrownBy(() -> StreamRequest.parse("/exec/ns/pod/main", "stdout=true"))
                .hasMessage("you must specify at least one command for the container");
        assertThatThrownBy(() -> StreamRequest.parse("/exec/ns", "stdout=true"))
                .hasMessage("expected /exec/{namespace}/{pod}[/{uid}]/{container}");
        assertThatThrownBy(() -> StreamRequest.parse("/portforward/ns/pod", "ports=70000"))
                .hasMessageContaining("invalid port \"70000\"");
    }

    @Test
    void theFirstSupportedProtocolOfTheClientsListWins() {
        List<String> ours = StreamingServer.CHANNEL_PROTOCOLS;
        assertThat(StreamingServer.negotiate("v5.channel.k8s.io, v4.channel.k8s.io", ours))
                .contains("v5.channel.k8s.io");
        assertThat(StreamingServer.negotiate("v4.channel.k8s.io,v5.channel.k8s.io", ours))
                .contains("v4.channel.k8s.io");
        assertThat(StreamingServer.negotiate("base64.channel.k8s.io", ours)).isEqualTo(Optional.empty());
        assertThat(StreamingServer.negotiate(null, ours)).isEmpty();
    }

    @Test
    void exitStatusesAreKubeletOnes() {
        assertThat(ExecStatus.success()).isEqualTo("{\"metadata\":{},\"status\":\"Success\"}");
        assertThat(ExecStatus.exitCode(List.of("sh", "-c", "exit 3"), 3))
                .isEqualTo("{\"metadata\":{},"
                        + "\"status\":\"Failure\",\"message\":\"command terminated with non-zero exit code: error executing "
                        + "command [sh -c exit 3], exit code 3\",\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":"
                        + "[{\"reason\":\"ExitCode\",\"message\":\"3\"}]}}");
    }
}
