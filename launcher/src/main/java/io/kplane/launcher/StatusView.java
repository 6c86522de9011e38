package io.kplane.launcher;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Shows one status line per component. On a terminal the block is redrawn in place; otherwise a
 * line is printed only when a component's status changes (readable in CI logs).
 */
final class StatusView {
    private final PrintStream out;
    private final boolean tty;
    private int drawnLines;
    private String lastSnapshot = "";

    StatusView(PrintStream out, boolean tty) {
        this.out = out;
        this.tty = tty;
    }

    static String line(SupervisedProcess p) {
        String status =
                switch (p.state()) {
                    case RUNNING -> p.healthy() ? "healthy" : "starting";
                    case BACKOFF -> "crashed, restarting";
                    default -> p.state().name().toLowerCase(Locale.ROOT);
                };
        String up = p.startedAt() == null || p.state() != SupervisedProcess.State.RUNNING
                ? "-"
                : human(Duration.between(p.startedAt(), Instant.now()));
        String port = ":" + p.spec().healthPort();
        return String.format(
                "%-20s %-20s pid %-8s %-7s up %-7s restarts %d",
                p.spec().name(), status, p.pid() < 0 ? "-" : String.valueOf(p.pid()), port, up, p.restarts());
    }

    static String human(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m" + (s % 60 == 0 ? "" : (s % 60) + "s");
        }
        return (s / 3600) + "h" + ((s % 3600) / 60) + "m";
    }

    synchronized void render(List<SupervisedProcess> processes) {
        StringBuilder block = new StringBuilder();
        StringBuilder states = new StringBuilder();
        for (SupervisedProcess p : processes) {
            block.append(line(p)).append('\n');
            states.append(p.spec().name())
                    .append(p.state())
                    .append(p.healthy())
                    .append(p.restarts())
                    .append(';');
        }
        if (tty) {
            if (drawnLines > 0) {
                out.print("\u001b[" + drawnLines + "F\u001b[J");
            }
            out.print(block);
            drawnLines = processes.size();
        } else if (!states.toString().equals(lastSnapshot)) {
            for (SupervisedProcess p : processes) {
                out.println("[status] " + line(p));
            }
        }
        lastSnapshot = states.toString();
        out.flush();
    }

    /** A message printed above the live block (so it is not overwritten). */
    synchronized void message(String text) {
        if (tty && drawnLines > 0) {
            out.print("\u001b[" + drawnLines + "F\u001b[J");
            drawnLines = 0;
        }
        out.println(text);
        out.flush();
    }
}
