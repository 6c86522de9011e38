package io.kplane.apiserver.registry;

import io.kplane.api.ResourceType;
import io.kplane.api.admission.Admission;
import io.kplane.apiserver.kubectl.Printers;
import io.kplane.apiserver.kubectl.ResourcePrinter;

/** A strategy with the generic behaviour: the given admission and printer, nothing type-specific. */
public class GenericStrategy implements ResourceStrategy {
    private final ResourceType type;
    private final Admission admission;
    private final ResourcePrinter printer;

    public GenericStrategy(ResourceType type, Admission admission, ResourcePrinter printer) {
        this.type = type;
        this.admission = admission;
        this.printer = printer;
    }

    public GenericStrategy(ResourceType type, Admission admission) {
        this(type, admission, Printers.defaultPrinter());
    }

    @Override
    public ResourceType type() {
        return type;
    }

    @Override
    public Admission admission() {
        return admission;
    }

    @Override
    public ResourcePrinter printer() {
        return printer;
    }
}
