package io.kplane.controllers.job;

import io.kplane.api.batch.Job;
import io.kplane.api.core.Container;
import io.kplane.api.core.EnvVar;
import io.kplane.api.core.EnvVarSource;
import io.kplane.api.core.ObjectFieldSelector;
import io.kplane.api.core.Pod;
import io.kplane.api.core.PodSpec;
import io.kplane.api.core.PodTemplateSpec;
import io.kplane.api.meta.ObjectMeta;
import io.kplane.api.meta.ObjectMetaBuilder;
import io.kplane.api.meta.OwnerReference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the pods a Job creates from its {@code spec.template}. */
final class PodTemplates {
    static final String COMPLETION_INDEX_ENV = "JOB_COMPLETION_INDEX";
    /** Kubernetes' limit for a generateName prefix (63 minus the 5 random characters). */
    static final int MAX_GENERATE_NAME = 58;

    private PodTemplates() {}

    /**
     * The pod to create for {@code job}; {@code index} is the completion index for Indexed Jobs or
     * {@link IndexedCompletion#UNKNOWN}.
     */
    static Pod newPod(Job job, int index) {
        PodTemplateSpec template = job.spec().template();
        ObjectMeta tm =
                template.metadata() == null ? ObjectMetaBuilder.builder().build() : template.metadata();
        Map<String, String> labels = new LinkedHashMap<>(tm.labelsOrEmpty());
        Map<String, String> annotations = new LinkedHashMap<>(tm.annotationsOrEmpty());
        List<String> finalizers = new ArrayList<>(tm.finalizersOrEmpty());
        if (!finalizers.contains(Job.TRACKING_FINALIZER)) {
            finalizers.add(Job.TRACKING_FINALIZER);
        }
        PodSpec spec = template.spec();
        String generateName;
        if (index != IndexedCompletion.UNKNOWN) {
            annotations.put(Job.COMPLETION_INDEX_ANNOTATION, Integer.toString(index));
            labels.put(Job.COMPLETION_INDEX_ANNOTATION, Integer.toString(index));
            spec = withCompletionIndexEnv(spec).withHostname(job.metadata().name() + "-" + index);
            generateName = generateNameWithIndex(job.metadata().name(), index);
        } else {
            generateName = truncate(job.metadata().name() + "-");
        }
        ObjectMeta meta = ObjectMetaBuilder.builder()
                .generateName(generateName)
                .namespace(job.metadata().namespace())
                .labels(labels.isEmpty() ? null : labels)
                .annotations(annotations.isEmpty() ? null : annotations)
                .finalizers(finalizers)
                .ownerReferences(List.of(controllerRef(job)))
                .build();
        return new Pod(Pod.API_VERSION, Pod.KIND, meta, spec, null);
    }

    static OwnerReference controllerRef(Job job) {
        return OwnerReference.controllerOf(Job.API_VERSION, Job.KIND, job.metadata());
    }

    static String generateNameWithIndex(String jobName, int index) {
        String appendix = "-" + index + "-";
        String prefix = jobName + appendix;
        if (prefix.length() > MAX_GENERATE_NAME) {
            prefix = prefix.substring(0, MAX_GENERATE_NAME - appendix.length()) + appendix;
        }
        return prefix;
    }

    private static String truncate(String prefix) {
        return prefix.length() > MAX_GENERATE_NAME ? prefix.substring(0, MAX_GENERATE_NAME) : prefix;
    }

    private static PodSpec withCompletionIndexEnv(PodSpec spec) {
        return spec.withContainers(addIndexEnv(spec.containers()))
                .withInitContainers(addIndexEnv(spec.initContainers()));
    }

    private static List<Container> addIndexEnv(List<Container> containers) {
        if (containers == null) {
            return null;
        }
        List<Container> result = new ArrayList<>(containers.size());
        for (Container c : containers) {
            boolean present = c.envOrEmpty().stream().anyMatch(e -> COMPLETION_INDEX_ENV.equals(e.name()));
            if (present) {
                result.add(c);
                continue;
            }
            List<EnvVar> env = new ArrayList<>(c.envOrEmpty());
            env.add(new EnvVar(
                    COMPLETION_INDEX_ENV,
                    null,
                    new EnvVarSource(
                            new ObjectFieldSelector(
                                    "v1", "metadata.annotations['" + Job.COMPLETION_INDEX_ANNOTATION + "']"),
                            null,
                            null,
                            null)));
            result.add(c.withEnv(env));
        }
        return result;
    }
}
