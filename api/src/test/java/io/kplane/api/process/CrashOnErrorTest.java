package io.kplane.api.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CrashOnErrorTest {
    /** A component whose informer thread dies: of an Error or of an exception, as its argument says. */
    public static final class DyingComponent {
        public static void main(String[] args) throws InterruptedException {
            CrashOnError.install("dying-component");
            boolean error = args[0].equals("error");
            Thread informer = new Thread(
                    () -> {
                        if (error) {
                            throw new NoClassDefFoundError("io/kplane/client/informer/ProcessorListener$Delete");
                        }
                        throw new IllegalStateException("a bug in a handler");
                    },
                    "pods@node-1-informer");
            informer.start();
            informer.join();
            System.out.println("still running");
        }
    }

    @Test
    void aComponentWhoseThreadDiesOfAnErrorExitsWithStatus2() throws Exception {
        Ran ran = run("error");

        assertThat(ran.status).isEqualTo(CrashOnError.EXIT_STATUS);
        assertThat(ran.stdout).doesNotContain("still running");
        assertThat(ran.stderr)
                .contains("dying-component: thread \"pods@node-1-informer\" died of java.lang.NoClassDefFoundError")
                .contains("exiting (status 2)");
    }

    @Test
    void anExceptionThatEscapesAThreadIsPrintedAsBeforeAndTheProcessGoesOn() throws Exception {
        Ran ran = run("exception");

        assertThat(ran.status).isZero();
        assertThat(ran.stdout).contains("still running");
        assertThat(ran.stderr)
                .contains("Exception in thread \"pods@node-1-informer\" java.lang.IllegalStateException: a bug");
    }

    @Test
    void anExceptionGoesToTheHandlerInstalledBefore() throws InterruptedException {
        AtomicReference<Throwable> before = new AtomicReference<>();
        AtomicInteger halted = new AtomicInteger(-1);
        CrashOnError handler = new CrashOnError(
                "c",
                (thread, failure) -> before.set(failure),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                halted::set);

        Thread thread = new Thread(() -> {
            throw new IllegalArgumentException("x");
        });
        thread.setUncaughtExceptionHandler(handler);
        thread.start();
        thread.join();

        assertThat(before.get()).isInstanceOf(IllegalArgumentException.class);
        assertThat(halted.get()).isEqualTo(-1);
    }

    private record Ran(int status, String stdout, String stderr) {}

    private static Ran run(String mode) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(List.of(
                        java.toString(),
                        "-Xshare:auto",
                        "-cp",
                        System.getProperty("java.class.path"),
                        DyingComponent.class.getName(),
                        mode))
                .start();
        process.getOutputStream().close();
        // the outputs are a few lines: the pipes' buffers hold them until the process has ended
        assertThat(process.waitFor(60, TimeUnit.SECONDS))
                .as("the process ended")
                .isTrue();
        return new Ran(
                process.exitValue(),
                new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
