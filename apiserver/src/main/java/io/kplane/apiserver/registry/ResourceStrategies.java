package io.kplane.apiserver.registry;

import io.kplane.api.ResourceType;
import io.kplane.api.ResourceTypes;
import io.kplane.api.admission.EventAdmission;
import io.kplane.api.admission.LeaseAdmission;
import io.kplane.api.admission.MetadataOnlyAdmission;
import io.kplane.api.admission.NodeAdmission;
import io.kplane.api.admission.RoleAdmission;
import io.kplane.api.admission.RoleBindingAdmission;
import io.kplane.apiserver.kubectl.Printers;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The strategy of every served resource: the one place where a kind's behaviour is registered. A
 * resource without an entry gets metadata checks and NAME AGE columns.
 */
public final class ResourceStrategies {
    private static final Map<String, ResourceStrategy> BY_STORAGE_NAME = new LinkedHashMap<>();

    static {
        register(new PodStrategy());
        register(new NamespaceStrategy());
        register(BatchStrategies.jobs());
        register(BatchStrategies.cronJobs());
        register(new GenericStrategy(ResourceTypes.NODES, new NodeAdmission(), Printers.node()));
        register(new GenericStrategy(ResourceTypes.EVENTS, new EventAdmission(), Printers.event()));
        register(new GenericStrategy(ResourceTypes.LEASES, new LeaseAdmission(), Printers.lease()));
        register(ConfigStrategies.configMaps());
        register(ConfigStrategies.secrets());
        register(ConfigStrategies.serviceAccounts());
        register(VolumeStrategies.claims());
        register(VolumeStrategies.volumes());
        register(new GenericStrategy(ResourceTypes.ROLES, new RoleAdmission.Namespaced(), Printers.role()));
        register(new GenericStrategy(ResourceTypes.CLUSTERROLES, new RoleAdmission.Cluster(), Printers.role()));
        register(new GenericStrategy(
                ResourceTypes.ROLEBINDINGS, new RoleBindingAdmission.Namespaced(), Printers.roleBinding()));
        register(new GenericStrategy(
                ResourceTypes.CLUSTERROLEBINDINGS, new RoleBindingAdmission.Cluster(), Printers.roleBinding()));
        // the cluster Clock: its status (anchors) is computed by io.kplane.apiserver.clock.ClockStrategy
        register(new GenericStrategy(ResourceTypes.CLOCKS, new io.kplane.api.admission.ClockAdmission()));
        // the lens's persisted sync records (docs/lens.md)
        register(new GenericStrategy(
                ResourceTypes.SYNCRECORDS, new io.kplane.api.admission.SyncRecordAdmission(), Printers.syncRecord()));
    }

    private ResourceStrategies() {}

    private static void register(ResourceStrategy strategy) {
        BY_STORAGE_NAME.put(strategy.type().storageName(), strategy);
    }

    /** The strategy of {@code type}. */
    public static ResourceStrategy of(ResourceType type) {
        ResourceStrategy s = BY_STORAGE_NAME.get(type.storageName());
        return s != null ? s : new GenericStrategy(type, new MetadataOnlyAdmission(type.namespaced()));
    }

    /** The strategy of a served kind ({@code Job}), for the Table renderer. */
    public static Optional<ResourceStrategy> byKind(String kind) {
        return BY_STORAGE_NAME.values().stream()
                .filter(s -> s.type().kind().equals(kind))
                .findFirst();
    }

    /** Every registered strategy. */
    public static List<ResourceStrategy> all() {
        return List.copyOf(BY_STORAGE_NAME.values());
    }
}
