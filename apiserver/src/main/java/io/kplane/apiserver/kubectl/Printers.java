package io.kplane.apiserver.kubectl;

import java.util.Map;

/** The printer for each kind the server serves; anything else prints NAME AGE. */
public final class Printers {
    private static final Map<String, ResourcePrinter> BY_KIND = Map.of(
            "Pod", new PodPrinter(),
            "Job", new JobPrinter(),
            "CronJob", new CronJobPrinter(),
            "Node", new NodePrinter(),
            "Event", new EventPrinter(),
            "Namespace", new SimplePrinters.NamespacePrinter(),
            "Lease", new SimplePrinters.LeasePrinter());
    private static final ResourcePrinter DEFAULT = new SimplePrinters.DefaultPrinter();

    private Printers() {
    }

    public static ResourcePrinter forKind(String kind) {
        return BY_KIND.getOrDefault(kind, DEFAULT);
    }
}
