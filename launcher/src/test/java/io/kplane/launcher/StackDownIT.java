package io.kplane.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code ./kplane down} from another terminal stops a running stack: it says so, the launcher exits,
 * no component process is left and the state file is gone. It stops the run's {@link SharedStack}, so
 * it is ordered after the other stack ITs (src/test/resources/junit-platform.properties orders classes
 * by {@code @Order}); run first or alone it is still right, only a later class starts a new stack. It
 * takes the stack even after CronJobTimelineBrowserIT moved its clock back ({@link SharedStack#anyClock}):
 * stopping does not depend on the components' cluster-clock timers.
 */
@Order(Integer.MAX_VALUE)
class StackDownIT {
    @RegisterExtension
    static final SharedStack STACK = SharedStack.anyClock("down");

    @Test
    void downFromAnotherTerminalStopsEveryComponentAndRemovesTheStateFile() throws Exception {
        LaunchedStack stack = STACK.release();
        List<ProcessHandle> children = stack.launcher().descendants().toList();
        assertThat(children).as("component processes").isNotEmpty();
        try {
            Process down = new ProcessBuilder(
                            LaunchedStack.javaBinary(),
                            "-jar",
                            LaunchedStack.launcherJar(),
                            "down",
                            "--state-dir",
                            stack.stateDir().toString())
                    .redirectErrorStream(true)
                    .start();
            String out = new String(down.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(down.waitFor(90, TimeUnit.SECONDS)).isTrue();
            assertThat(out).contains("kplane stopped");
            assertThat(stack.launcher().waitFor(90, TimeUnit.SECONDS))
                    .as("launcher stops")
                    .isTrue();
            await("no orphaned component processes")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> children.stream().noneMatch(ProcessHandle::isAlive));
            assertThat(StateFile.read(stack.stateDir())).isNull();
        } finally {
            // whatever the outcome, nothing of this stack outlives the test
            stack.launcher().destroyForcibly();
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }
}
