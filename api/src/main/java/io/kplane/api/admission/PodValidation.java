package io.kplane.api.admission;

import io.kplane.api.core.Container;
import io.kplane.api.core.ContainerPort;
import io.kplane.api.core.EnvVar;
import io.kplane.api.core.EnvVarSource;
import io.kplane.api.core.ObjectFieldSelector;
import io.kplane.api.core.PodSpec;
import io.kplane.api.core.PodTemplateSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Pod spec and pod template checks ({@code ValidatePodSpec}, {@code ValidatePodTemplateSpec}). */
final class PodValidation {
    static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
    static final List<String> DNS_POLICIES = List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None");
    static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
    static final List<String> TERMINATION_MESSAGE_POLICIES = List.of("File", "FallbackToLogsOnError");
    static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
    /** Downward API paths Kubernetes supports in env, sorted as its error lists them. */
    static final List<String> ENV_FIELD_PATHS = List.of(
            "metadata.name",
            "metadata.namespace",
            "metadata.uid",
            "spec.nodeName",
            "spec.serviceAccountName",
            "status.hostIP",
            "status.hostIPs",
            "status.podIP",
            "status.podIPs");

    private static final List<String> SUBSCRIPTED_FIELD_PATHS = List.of("metadata.annotations", "metadata.labels");
    private static final Pattern SUBSCRIPT = Pattern.compile("^(.*)\\['(.*)'\\]$");
    private static final long MAX_INT32 = Integer.MAX_VALUE;

    private PodValidation() {}

    static void template(PodTemplateSpec template, String path, FieldErrors errs) {
        if (template == null) {
            errs.add(FieldError.required(path + ".spec.containers", ""));
            return;
        }
        if (template.metadata() != null) {
            MetadataValidation.labels(template.metadata().labels(), path + ".metadata.labels", errs);
            MetadataValidation.annotations(template.metadata().annotations(), path + ".metadata.annotations", errs);
        }
        spec(template.spec(), path + ".spec", errs);
    }

    static void spec(PodSpec spec, String path, FieldErrors errs) {
        if (spec == null) {
            errs.add(FieldError.required(path + ".containers", ""));
            return;
        }
        Set<String> names = new HashSet<>();
        containers(spec.initContainersOrEmpty(), path + ".initContainers", names, errs);
        if (spec.containersOrEmpty().isEmpty()) {
            errs.add(FieldError.required(path + ".containers", ""));
        } else {
            containers(spec.containersOrEmpty(), path + ".containers", names, errs);
        }
        errs.oneOf(path + ".restartPolicy", spec.restartPolicy(), RESTART_POLICIES);
        errs.oneOf(path + ".dnsPolicy", spec.dnsPolicy(), DNS_POLICIES);
        errs.nonNegative(path + ".terminationGracePeriodSeconds", spec.terminationGracePeriodSeconds());
        Long ads = spec.activeDeadlineSeconds();
        if (ads != null && (ads < 1 || ads > MAX_INT32)) {
            errs.add(FieldError.invalid(
                    path + ".activeDeadlineSeconds", ads, "must be between 1 and " + MAX_INT32 + ", inclusive"));
        }
        if (spec.nodeName() != null && !spec.nodeName().isEmpty()) {
            errs.invalidEach(path + ".nodeName", spec.nodeName(), NameRules.dns1123Subdomain(spec.nodeName()));
        }
        if (spec.hostname() != null && !spec.hostname().isEmpty()) {
            errs.invalidEach(path + ".hostname", spec.hostname(), NameRules.dns1123Label(spec.hostname()));
        }
        if (spec.subdomain() != null && !spec.subdomain().isEmpty()) {
            errs.invalidEach(path + ".subdomain", spec.subdomain(), NameRules.dns1123Label(spec.subdomain()));
        }
        MetadataValidation.labels(spec.nodeSelector(), path + ".nodeSelector", errs);
    }

    private static void containers(List<Container> containers, String path, Set<String> names, FieldErrors errs) {
        for (int i = 0; i < containers.size(); i++) {
            Container c = containers.get(i);
            String p = FieldErrors.index(path, i);
            if (c.name() == null || c.name().isEmpty()) {
                errs.add(FieldError.required(p + ".name", ""));
            } else {
                errs.invalidEach(p + ".name", c.name(), NameRules.dns1123Label(c.name()));
                if (!names.add(c.name())) {
                    errs.add(FieldError.duplicate(p + ".name", c.name()));
                }
            }
            if (c.image() == null || c.image().isEmpty()) {
                errs.add(FieldError.required(p + ".image", ""));
            } else if (!c.image().strip().equals(c.image())) {
                errs.add(FieldError.invalid(p + ".image", c.image(), "must not have leading or trailing whitespace"));
            }
            errs.oneOf(p + ".imagePullPolicy", c.imagePullPolicy(), PULL_POLICIES);
            errs.oneOf(p + ".terminationMessagePolicy", c.terminationMessagePolicy(), TERMINATION_MESSAGE_POLICIES);
            ports(c.ports(), p + ".ports", errs);
            env(c.envOrEmpty(), p + ".env", errs);
        }
    }

    private static void ports(List<ContainerPort> ports, String path, FieldErrors errs) {
        if (ports == null) {
            return;
        }
        for (int i = 0; i < ports.size(); i++) {
            ContainerPort port = ports.get(i);
            String p = FieldErrors.index(path, i);
            if (port.containerPort() == null || port.containerPort() == 0) {
                errs.add(FieldError.required(p + ".containerPort", ""));
            } else if (port.containerPort() < 1 || port.containerPort() > 65535) {
                errs.add(FieldError.invalid(
                        p + ".containerPort", port.containerPort(), "must be between 1 and 65535, inclusive"));
            }
            if (port.hostPort() != null && port.hostPort() != 0 && (port.hostPort() < 1 || port.hostPort() > 65535)) {
                errs.add(
                        FieldError.invalid(p + ".hostPort", port.hostPort(), "must be between 1 and 65535, inclusive"));
            }
            errs.oneOf(p + ".protocol", port.protocol(), PROTOCOLS);
        }
    }

    private static void env(List<EnvVar> env, String path, FieldErrors errs) {
        for (int i = 0; i < env.size(); i++) {
            EnvVar e = env.get(i);
            String p = FieldErrors.index(path, i);
            if (e.name() == null || e.name().isEmpty()) {
                errs.add(FieldError.required(p + ".name", ""));
            } else {
                errs.invalidEach(p + ".name", e.name(), NameRules.envVarName(e.name()));
            }
            if (e.valueFrom() != null) {
                valueFrom(e, p + ".valueFrom", errs);
            }
        }
    }

    private static void valueFrom(EnvVar e, String path, FieldErrors errs) {
        EnvVarSource src = e.valueFrom();
        int sources = 0;
        if (src.fieldRef() != null) {
            sources++;
            fieldRef(src.fieldRef(), path + ".fieldRef", errs);
        }
        if (src.resourceFieldRef() != null) {
            sources++;
        }
        if (src.configMapKeyRef() != null) {
            sources++;
        }
        if (src.secretKeyRef() != null) {
            sources++;
        }
        if (sources == 0) {
            errs.add(FieldError.invalid(
                    path,
                    "",
                    "must specify one of: `fieldRef`, `resourceFieldRef`, " + "`configMapKeyRef` or `secretKeyRef`"));
        } else if (sources > 1) {
            errs.add(FieldError.invalid(path, "", "may not have more than one field specified at a time"));
        }
        if (e.value() != null && !e.value().isEmpty() && sources != 0) {
            errs.add(FieldError.invalid(path, "", "may not be specified when `value` is not empty"));
        }
    }

    private static void fieldRef(ObjectFieldSelector ref, String path, FieldErrors errs) {
        if (ref.apiVersion() == null || ref.apiVersion().isEmpty()) {
            errs.add(FieldError.required(path + ".apiVersion", ""));
            return;
        }
        String fieldPath = ref.fieldPath();
        if (fieldPath == null || fieldPath.isEmpty()) {
            errs.add(FieldError.required(path + ".fieldPath", ""));
            return;
        }
        Matcher m = SUBSCRIPT.matcher(fieldPath);
        if (m.matches()) {
            if (!SUBSCRIPTED_FIELD_PATHS.contains(m.group(1))) {
                errs.add(FieldError.notSupported(path + ".fieldPath", fieldPath, SUBSCRIPTED_FIELD_PATHS));
            } else {
                errs.invalidEach(path + ".fieldPath", m.group(2), NameRules.qualifiedName(m.group(2)));
            }
        } else if (!ENV_FIELD_PATHS.contains(fieldPath)) {
            errs.add(FieldError.notSupported(path + ".fieldPath", fieldPath, ENV_FIELD_PATHS));
        }
    }
}
