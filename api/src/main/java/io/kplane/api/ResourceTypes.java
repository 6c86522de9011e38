package io.kplane.api;

import io.kplane.api.batch.CronJob;
import io.kplane.api.batch.Job;
import io.kplane.api.clock.Clock;
import io.kplane.api.coordination.Lease;
import io.kplane.api.core.ConfigMap;
import io.kplane.api.core.Event;
import io.kplane.api.core.Namespace;
import io.kplane.api.core.Node;
import io.kplane.api.core.PersistentVolume;
import io.kplane.api.core.PersistentVolumeClaim;
import io.kplane.api.core.Pod;
import io.kplane.api.core.Secret;
import io.kplane.api.core.ServiceAccount;
import io.kplane.api.lens.SyncRecord;
import io.kplane.api.meta.KubeObject;
import io.kplane.api.rbac.ClusterRole;
import io.kplane.api.rbac.ClusterRoleBinding;
import io.kplane.api.rbac.Role;
import io.kplane.api.rbac.RoleBinding;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The registry of every resource kplane serves. Lookups ignore case. */
public final class ResourceTypes {
    private static final List<String> CRUD = ResourceType.ALL_VERBS;

    public static final ResourceType NAMESPACES = new ResourceType(
            "",
            "v1",
            "namespaces",
            Namespace.KIND,
            "NamespaceList",
            "namespace",
            false,
            List.of("ns"),
            List.of(),
            List.of("create", "delete", "get", "list", "patch", "update", "watch"),
            List.of("status", "finalize"),
            Namespace.class);
    public static final ResourceType PODS = new ResourceType(
            "",
            "v1",
            "pods",
            Pod.KIND,
            "PodList",
            "pod",
            true,
            List.of("po"),
            List.of("all"),
            CRUD,
            List.of("status", "log", "binding", "exec", "attach", "portforward"),
            Pod.class);
    public static final ResourceType NODES = new ResourceType(
            "",
            "v1",
            "nodes",
            Node.KIND,
            "NodeList",
            "node",
            false,
            List.of("no"),
            List.of(),
            CRUD,
            List.of("status"),
            Node.class);
    public static final ResourceType EVENTS = new ResourceType(
            "",
            "v1",
            "events",
            Event.KIND,
            "EventList",
            "event",
            true,
            List.of("ev"),
            List.of(),
            CRUD,
            List.of(),
            Event.class);
    public static final ResourceType LEASES = new ResourceType(
            "coordination.k8s.io",
            "v1",
            "leases",
            Lease.KIND,
            "LeaseList",
            "lease",
            true,
            List.of(),
            List.of(),
            CRUD,
            List.of(),
            Lease.class);
    public static final ResourceType JOBS = new ResourceType(
            "batch",
            "v1",
            "jobs",
            Job.KIND,
            "JobList",
            "job",
            true,
            List.of(),
            List.of("all"),
            CRUD,
            List.of("status"),
            Job.class);
    public static final ResourceType CRONJOBS = new ResourceType(
            "batch",
            "v1",
            "cronjobs",
            CronJob.KIND,
            "CronJobList",
            "cronjob",
            true,
            List.of("cj"),
            List.of("all"),
            CRUD,
            List.of("status"),
            CronJob.class);
    public static final ResourceType CONFIGMAPS = new ResourceType(
            "",
            "v1",
            "configmaps",
            ConfigMap.KIND,
            "ConfigMapList",
            "configmap",
            true,
            List.of("cm"),
            List.of(),
            CRUD,
            List.of(),
            ConfigMap.class);
    public static final ResourceType SECRETS = new ResourceType(
            "",
            "v1",
            "secrets",
            Secret.KIND,
            "SecretList",
            "secret",
            true,
            List.of(),
            List.of(),
            CRUD,
            List.of(),
            Secret.class);
    public static final ResourceType SERVICEACCOUNTS = new ResourceType(
            "",
            "v1",
            "serviceaccounts",
            ServiceAccount.KIND,
            "ServiceAccountList",
            "serviceaccount",
            true,
            List.of("sa"),
            List.of(),
            CRUD,
            List.of(),
            ServiceAccount.class);
    public static final ResourceType PERSISTENTVOLUMECLAIMS = new ResourceType(
            "",
            "v1",
            "persistentvolumeclaims",
            PersistentVolumeClaim.KIND,
            "PersistentVolumeClaimList",
            "persistentvolumeclaim",
            true,
            List.of("pvc"),
            List.of(),
            CRUD,
            List.of("status"),
            PersistentVolumeClaim.class);
    public static final ResourceType PERSISTENTVOLUMES = new ResourceType(
            "",
            "v1",
            "persistentvolumes",
            PersistentVolume.KIND,
            "PersistentVolumeList",
            "persistentvolume",
            false,
            List.of("pv"),
            List.of(),
            CRUD,
            List.of("status"),
            PersistentVolume.class);
    private static final String RBAC = "rbac.authorization.k8s.io";
    public static final ResourceType ROLES = new ResourceType(
            RBAC,
            "v1",
            "roles",
            Role.KIND,
            "RoleList",
            "role",
            true,
            List.of(),
            List.of(),
            CRUD,
            List.of(),
            Role.class);
    public static final ResourceType CLUSTERROLES = new ResourceType(
            RBAC,
            "v1",
            "clusterroles",
            ClusterRole.KIND,
            "ClusterRoleList",
            "clusterrole",
            false,
            List.of(),
            List.of(),
            CRUD,
            List.of(),
            ClusterRole.class);
    public static final ResourceType ROLEBINDINGS = new ResourceType(
            RBAC,
            "v1",
            "rolebindings",
            RoleBinding.KIND,
            "RoleBindingList",
            "rolebinding",
            true,
            List.of(),
            List.of(),
            CRUD,
            List.of(),
            RoleBinding.class);
    public static final ResourceType CLUSTERROLEBINDINGS = new ResourceType(
            RBAC,
            "v1",
            "clusterrolebindings",
            ClusterRoleBinding.KIND,
            "ClusterRoleBindingList",
            "clusterrolebinding",
            false,
            List.of(),
            List.of(),
            CRUD,
            List.of(),
            ClusterRoleBinding.class);

    /** The cluster clock (kplane's own kind, see docs/clock.md): one object, {@code cluster}. */
    public static final ResourceType CLOCKS = new ResourceType(
            "kplane.io",
            "v1",
            "clocks",
            Clock.KIND,
            "ClockList",
            "clock",
            false,
            List.of(),
            List.of(),
            CRUD,
            List.of(),
            Clock.class);

    /** The lens's persisted sync records (kplane's own kind, see docs/lens.md): one per (object, controller). */
    public static final ResourceType SYNCRECORDS = new ResourceType(
            SyncRecord.GROUP,
            "v1",
            "syncrecords",
            SyncRecord.KIND,
            "SyncRecordList",
            "syncrecord",
            true,
            List.of("sr"),
            List.of(),
            CRUD,
            List.of(),
            SyncRecord.class);

    /** Every resource, in the order discovery lists them. */
    public static final List<ResourceType> ALL = List.of(
            NAMESPACES,
            PODS,
            NODES,
            EVENTS,
            LEASES,
            JOBS,
            CRONJOBS,
            CONFIGMAPS,
            SECRETS,
            SERVICEACCOUNTS,
            PERSISTENTVOLUMECLAIMS,
            PERSISTENTVOLUMES,
            ROLES,
            CLUSTERROLES,
            ROLEBINDINGS,
            CLUSTERROLEBINDINGS,
            CLOCKS,
            SYNCRECORDS);

    private ResourceTypes() {}

    /**
     * Resolves what a user types: plural ({@code jobs}), singular ({@code job}), short name
     * ({@code cj}), kind ({@code CronJob}) or a group-qualified form ({@code jobs.batch}).
     */
    public static Optional<ResourceType> lookup(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.empty();
        }
        String n = name.toLowerCase(Locale.ROOT);
        for (ResourceType t : ALL) {
            if (t.resource().equals(n)
                    || t.singular().equals(n)
                    || t.shortNames().contains(n)
                    || t.kind().toLowerCase(Locale.ROOT).equals(n)
                    || t.storageName().equals(n)
                    || (!t.isCoreGroup() && (t.singular() + "." + t.group()).equals(n))) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** By plural resource name within a group ({@code ""} for core), as in a REST path. */
    public static Optional<ResourceType> byResource(String group, String resource) {
        return ALL.stream()
                .filter(t -> t.group().equals(group) && t.resource().equalsIgnoreCase(resource))
                .findFirst();
    }

    /** By plural resource name in any group. */
    public static Optional<ResourceType> byResource(String resource) {
        return ALL.stream().filter(t -> t.resource().equalsIgnoreCase(resource)).findFirst();
    }

    /** By kind, case-insensitive ({@code Job}, {@code job}). */
    public static Optional<ResourceType> byKind(String kind) {
        return ALL.stream().filter(t -> t.kind().equalsIgnoreCase(kind)).findFirst();
    }

    /** By apiVersion and kind, as found in a manifest. */
    public static Optional<ResourceType> byApiVersionAndKind(String apiVersion, String kind) {
        return ALL.stream()
                .filter(t -> t.apiVersion().equals(apiVersion) && t.kind().equalsIgnoreCase(kind))
                .findFirst();
    }

    /** By short name ({@code po}, {@code cj}). */
    public static Optional<ResourceType> byShortName(String shortName) {
        String n = shortName.toLowerCase(Locale.ROOT);
        return ALL.stream().filter(t -> t.shortNames().contains(n)).findFirst();
    }

    /** By the record class, e.g. {@code Job.class}. */
    public static Optional<ResourceType> byJavaType(Class<? extends KubeObject> type) {
        return ALL.stream().filter(t -> t.javaType().equals(type)).findFirst();
    }

    /** Every resource in the given category ({@code all}). */
    public static List<ResourceType> inCategory(String category) {
        String c = category.toLowerCase(Locale.ROOT);
        return ALL.stream().filter(t -> t.categories().contains(c)).toList();
    }

    /** The group versions served: {@code v1}, {@code batch/v1}, {@code coordination.k8s.io/v1}. */
    public static List<String> groupVersions() {
        return ALL.stream().map(ResourceType::apiVersion).distinct().toList();
    }
}
