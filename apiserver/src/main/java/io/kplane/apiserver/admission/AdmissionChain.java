package io.kplane.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.ResourceType;
import java.util.List;

/** Runs admissions in order, each on the previous one's result. */
public final class AdmissionChain implements Admission {
    private final List<Admission> steps;

    public AdmissionChain(List<Admission> steps) {
        this.steps = List.copyOf(steps);
    }

    /** What the server runs by default: the api module's defaulting and validation (names included). */
    public static AdmissionChain standard() {
        return new AdmissionChain(List.of(new KubeAdmission()));
    }

    @Override
    public ObjectNode admit(ResourceType type, ObjectNode object, ObjectNode old) {
        ObjectNode current = object;
        for (Admission step : steps) {
            current = step.admit(type, current, old);
        }
        return current;
    }

    /** A chain of one step answers that step's form (the standard chain: the typed record). */
    @Override
    public AdmittedObject admitCreate(ResourceType type, ObjectNode object) {
        return steps.size() == 1 ? steps.get(0).admitCreate(type, object) : Admission.super.admitCreate(type, object);
    }

    @Override
    public ObjectNode admitStatus(ResourceType type, ObjectNode object, ObjectNode old) {
        ObjectNode current = object;
        for (Admission step : steps) {
            current = step.admitStatus(type, current, old);
        }
        return current;
    }
}
