package io.kplane.api.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kplane.api.core.Container;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpec;
import io.kplane.api.core.PodStatus;
import io.kplane.api.core.PodStatusBuilder;
import io.kplane.api.json.Json;
import java.util.ArrayList;
import java.util.List;

/** Pods: scheme defaults, Pending status on create, spec validation and spec immutability. */
public final class PodAdmission extends TypedAdmission<Pod> {
    static final String UPDATABLE_FIELDS = String.join(
            ",",
            List.of(
                    "`spec.containers[*].image`",
                    "`spec.initContainers[*].image`",
                    "`spec.activeDeadlineSeconds`",
                    "`spec.tolerations` (only additions to existing tolerations)",
                    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"));

    public PodAdmission() {
        super(Pod.class, true, MetadataValidation.NameRule.SUBDOMAIN);
    }

    @Override
    Pod applyDefaults(Pod pod) {
        return pod.withSpec(PodDefaults.podOnly(PodDefaults.spec(pod.spec())));
    }

    @Override
    Pod prepareForCreate(Pod pod) {
        PodSpec spec = pod.spec();
        // The Priority admission plugin: no priority class means priority 0.
        spec = spec.withPriority(spec.priority() == null ? Integer.valueOf(0) : spec.priority())
                .withPreemptionPolicy(
                        spec.preemptionPolicy() == null ? "PreemptLowerPriority" : spec.preemptionPolicy());
        PodStatus status = PodStatusBuilder.builder()
                .phase(PodStatus.PENDING)
                .qosClass(PodDefaults.qosClass(spec))
                .build();
        return pod.withSpec(spec).withStatus(status);
    }

    @Override
    void validateSpec(Pod pod, FieldErrors errs) {
        PodValidation.spec(pod.spec(), "spec", errs);
    }

    @Override
    void validateSpecUpdate(Pod newPod, Pod oldPod, FieldErrors errs) {
        validateSpec(newPod, errs);
        PodSpec newSpec = newPod.spec();
        PodSpec oldSpec = oldPod.spec();
        if (newSpec == null || oldSpec == null) {
            return;
        }
        Long newAds = newSpec.activeDeadlineSeconds();
        Long oldAds = oldSpec.activeDeadlineSeconds();
        if (oldAds != null) {
            if (newAds == null) {
                errs.add(FieldError.invalid(
                        "spec.activeDeadlineSeconds", null, "must not update from a positive integer to nil value"));
            } else if (newAds > oldAds) {
                errs.add(FieldError.invalid(
                        "spec.activeDeadlineSeconds", newAds, "must be less than or equal to previous value"));
            }
        }
        // Compare the specs with the updatable fields taken from the new spec.
        ObjectNode oldTree = Json.toTree(oldSpec);
        ObjectNode mungedTree = Json.toTree(munge(newSpec, oldSpec));
        if (!oldTree.equals(mungedTree)) {
            errs.add(FieldError.forbidden(
                    "spec",
                    "pod updates may not change fields other than " + UPDATABLE_FIELDS + "\n"
                            + diff(oldTree, mungedTree)));
        }
    }

    /** The old spec with the fields Kubernetes lets an update change copied from the new spec. */
    private static PodSpec munge(PodSpec newSpec, PodSpec oldSpec) {
        PodSpec munged = newSpec.withActiveDeadlineSeconds(oldSpec.activeDeadlineSeconds());
        munged = munged.withContainers(withImagesOf(newSpec.containers(), oldSpec.containers()));
        munged = munged.withInitContainers(withImagesOf(newSpec.initContainers(), oldSpec.initContainers()));
        if (startsWith(newSpec.tolerations(), oldSpec.tolerations())) {
            munged = munged.withTolerations(oldSpec.tolerations());
        }
        Long oldGrace = oldSpec.terminationGracePeriodSeconds();
        if (oldGrace != null && oldGrace < 0 && Long.valueOf(1).equals(newSpec.terminationGracePeriodSeconds())) {
            munged = munged.withTerminationGracePeriodSeconds(oldGrace);
        }
        return munged;
    }

    /** New containers with the images of the old ones, so only image changes vanish from the comparison. */
    private static List<Container> withImagesOf(List<Container> newOnes, List<Container> oldOnes) {
        if (newOnes == null || oldOnes == null || newOnes.size() != oldOnes.size()) {
            return newOnes;
        }
        List<Container> out = new ArrayList<>();
        for (int i = 0; i < newOnes.size(); i++) {
            out.add(newOnes.get(i).withImage(oldOnes.get(i).image()));
        }
        return out;
    }

    private static boolean startsWith(List<JsonNode> newOnes, List<JsonNode> oldOnes) {
        List<JsonNode> o = oldOnes == null ? List.of() : oldOnes;
        List<JsonNode> n = newOnes == null ? List.of() : newOnes;
        return n.size() >= o.size() && n.subList(0, o.size()).equals(o);
    }

    /** A short per-field account of what changed, standing in for Kubernetes' cmp.Diff. */
    private static String diff(ObjectNode oldTree, ObjectNode newTree) {
        StringBuilder out = new StringBuilder();
        java.util.TreeSet<String> keys = new java.util.TreeSet<>();
        oldTree.fieldNames().forEachRemaining(keys::add);
        newTree.fieldNames().forEachRemaining(keys::add);
        for (String k : keys) {
            JsonNode o = oldTree.get(k);
            JsonNode n = newTree.get(k);
            if (o == null ? n != null : !o.equals(n)) {
                out.append("  spec.")
                        .append(k)
                        .append(": ")
                        .append(o == null ? "null" : o.toString())
                        .append(" -> ")
                        .append(n == null ? "null" : n.toString())
                        .append('\n');
            }
        }
        return out.toString();
    }
}
