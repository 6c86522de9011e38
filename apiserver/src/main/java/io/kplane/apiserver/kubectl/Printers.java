package io.kplane.apiserver.kubectl;

import io.kplane.apiserver.registry.ResourceStrategies;

/**
 * The catalogue of server-side printers (kubectl 1.32's {@code printers/internalversion}); each
 * resource strategy names its own. {@link #forKind} answers for the Table renderer.
 */
public final class Printers {
    private static final ResourcePrinter DEFAULT = new SimplePrinters.DefaultPrinter();

    private Printers() {}

    /** The printer of the served kind {@code kind}; NAME AGE for anything else. */
    public static ResourcePrinter forKind(String kind) {
        return ResourceStrategies.byKind(kind).map(s -> s.printer()).orElse(DEFAULT);
    }

    public static ResourcePrinter defaultPrinter() {
        return DEFAULT;
    }

    public static ResourcePrinter pod() {
        return new PodPrinter();
    }

    public static ResourcePrinter job() {
        return new JobPrinter();
    }

    public static ResourcePrinter cronJob() {
        return new CronJobPrinter();
    }

    public static ResourcePrinter node() {
        return new NodePrinter();
    }

    public static ResourcePrinter event() {
        return new EventPrinter();
    }

    public static ResourcePrinter namespace() {
        return new SimplePrinters.NamespacePrinter();
    }

    public static ResourcePrinter lease() {
        return new SimplePrinters.LeasePrinter();
    }

    /** SyncRecords (lens.kplane.io): NAME OBJECT CONTROLLER SYNCS LAST DECISION LAST SYNC AGE. */
    public static ResourcePrinter syncRecord() {
        return new SyncRecordPrinter();
    }

    public static ResourcePrinter configMap() {
        return new ConfigPrinters.ConfigMapPrinter();
    }

    public static ResourcePrinter secret() {
        return new ConfigPrinters.SecretPrinter();
    }

    public static ResourcePrinter serviceAccount() {
        return new ConfigPrinters.ServiceAccountPrinter();
    }

    public static ResourcePrinter persistentVolumeClaim() {
        return new VolumePrinters.ClaimPrinter();
    }

    public static ResourcePrinter persistentVolume() {
        return new VolumePrinters.VolumePrinter();
    }

    /** Roles and ClusterRoles. */
    public static ResourcePrinter role() {
        return new RbacPrinters.RolePrinter();
    }

    /** RoleBindings and ClusterRoleBindings. */
    public static ResourcePrinter roleBinding() {
        return new RbacPrinters.BindingPrinter();
    }
}
