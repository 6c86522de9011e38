package io.kplane.api.lens;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Where the SyncRecord of (object, controller) lives: namespace = the object's ({@code kube-system}
 * for a cluster-scoped object: a namespaced dependent may have a cluster-scoped owner, never the other
 * way round), name = {@code <object name>.<singular resource>.<controller>} with {@code _} written as
 * {@code -} (a DNS-1123 subdomain), e.g. {@code pi.job.job}, {@code pi-x7k2p.pod.job-orphan-pod}. A name
 * that would pass 253 characters keeps a prefix and ends in a hash of the full name, so it stays unique.
 */
public final class SyncRecordNames {
    public static final String CLUSTER_SCOPED_NAMESPACE = "kube-system";
    static final int MAX_NAME = 253;

    private SyncRecordNames() {}

    public static String namespace(String objectNamespace) {
        return objectNamespace == null || objectNamespace.isEmpty() ? CLUSTER_SCOPED_NAMESPACE : objectNamespace;
    }

    public static String name(String objectName, String singular, String controller) {
        String full = (objectName + "." + singular + "." + controller)
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9.-]", "-");
        if (full.length() <= MAX_NAME) {
            return full;
        }
        String hash = sha1(full).substring(0, 10);
        // a label may not end in "." or "-": trim them before the hash
        return full.substring(0, MAX_NAME - hash.length() - 1).replaceAll("[.-]+$", "") + "-" + hash;
    }

    private static String sha1(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
